/**
 * `X-Content-Type-Options: nosniff` on every response of a server (REST, the graph, pages, assets, probes, errors,
 * 404s, CORS preflights): a browser then never reads a JSON answer or an SVG as script or HTML by sniffing it. One
 * `onSend` hook at the root, so no route can forget it; a synchronous one (the hot path pays a function call).
 */
import type { FastifyInstance } from 'fastify';

export function nosniffEverywhere(app: FastifyInstance): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });
}

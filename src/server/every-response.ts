/**
 * What every response of a server carries (REST, the graph, pages, assets, probes, errors, 404s, CORS preflights),
 * from one synchronous `onSend` hook at the root, so that no route can forget it (the hot path pays a function call):
 *
 * - `X-Content-Type-Options: nosniff`: a browser never reads a JSON answer or an SVG as script or HTML by sniffing it;
 * - `Connection: close` on an answer sent before a large request body was read (a refusal from the headers: 401,
 *   429, 413…): Node would otherwise read the rest of the body, only to throw it away, to keep the connection for a
 *   next request — a megabyte for each refused request of a caller sending megabyte bodies, gigabytes of buffers in
 *   a flood of them. A body of up to {@link DRAINED_BODY_BYTES} is still read: the connection is worth more.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The most of a body left unread by an early answer that is still read (and dropped) to keep the connection. */
export const DRAINED_BODY_BYTES = 64 * 1024;

export function everyResponse(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (!req.raw.complete && largeBody(req.headers)) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** Whether a request says its body is over {@link DRAINED_BODY_BYTES}, or does not say (chunked). */
function largeBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && Number(length) > DRAINED_BODY_BYTES;
}

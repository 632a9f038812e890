/**
 * What every response of a server carries (REST, the graph, pages, assets, probes, errors, 404s, CORS preflights),
 * from one synchronous `onSend` hook at the root, so that no route can forget it (the hot path pays a function call):
 *
 * - `X-Content-Type-Options: nosniff`: a browser never reads a JSON answer or an SVG as script or HTML by sniffing it;
 * - `X-Request-Id`: the request's id (`host/request-id.ts`), which its access line and log lines carry too;
 * - `Connection: close` on an answer sent before a large request body was read (a refusal from the headers: 401,
 *   429, 413…): Node would otherwise read the rest of the body, only to throw it away, to keep the connection for a
 *   next request — a megabyte for each refused request of a caller sending megabyte bodies, gigabytes of buffers in
 *   a flood of them. A body of up to {@link DRAINED_BODY_BYTES} is still read: the connection is worth more;
 * - a 429 to a caller who keeps asking before its `Retry-After` is held before it is sent (`pace`:
 *   `src/access/refusal-pace.ts`); held refusals are sent at once when the server closes.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestNotesOf } from '../core/request-notes.ts';
import type { RefusalPace } from '../access/refusal-pace.ts';

/** The most of a body left unread by an early answer that is still read (and dropped) to keep the connection. */
export const DRAINED_BODY_BYTES = 64 * 1024;

export function everyResponse(app: FastifyInstance, pace?: RefusalPace): void {
  /** Held refusals, each with the function that sends it. */
  const held = new Map<NodeJS.Timeout, () => void>();
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-request-id', req.id);
    if (!req.raw.complete && largeBody(req.headers)) reply.header('connection', 'close');
    const ms = pace && reply.statusCode === 429 ? holdFor(pace, req, reply) : 0;
    if (ms === 0) return done(null, payload);
    const send = () => {
      held.delete(timer);
      pace?.release();
      done(null, payload);
    };
    const timer = setTimeout(send, ms);
    held.set(timer, send);
  });
  if (pace)
    app.addHook('preClose', (done) => {
      for (const [timer, send] of held) {
        clearTimeout(timer);
        send();
      }
      done();
    });
}

/** How long to hold a 429 (ms): who it is for, as its request noted, and the wait it names. */
function holdFor(pace: RefusalPace, req: FastifyRequest, reply: FastifyReply): number {
  const caller = pace.callerOf(
    requestNotesOf(req.raw).keyId,
    req.socket.remoteAddress ?? '',
    req.headers['x-forwarded-for'],
  );
  return pace.hold(caller, Number(reply.getHeader('retry-after') ?? 1) || 1, Date.now());
}

/** Whether a request says its body is over {@link DRAINED_BODY_BYTES}, or does not say (chunked). */
function largeBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && Number(length) > DRAINED_BODY_BYTES;
}

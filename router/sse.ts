/**
 * GraphQL over Server-Sent Events at `/graphql`: the `graphql-sse` protocol's distinct connections mode (what its
 * client uses by default) — a GET or POST that prefers `Accept: text/event-stream` (or accepts it, for a
 * subscription: {@link wantsEventStream}) carries one operation, answered
 * `200 text/event-stream` with a `next` event per result and a `complete` event at the end; plain HTTP/1, so it goes
 * through any proxy. A request the router refuses before the stream starts (key, budget, limits, caps, a bad
 * document) is answered with its HTTP status and `{ "errors": [...] }`, as the protocol allows.
 *
 * One timer keeps every open stream alive (a comment line every 15 s, so that proxies do not cut an idle stream
 * between two ticks); a reader that falls more than 1 MiB behind is disconnected. `closeAll` (shutdown) cuts every
 * stream without `complete`, so that clients reconnect — to another router behind the load balancer.
 */
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { print } from 'graphql-sse';
import type { ExecutionResult } from 'graphql';
import { noteRequest } from '../src/core/request-notes.ts';
import type { RouterRequest } from './http-phase.ts';
import { chooseDelivery, peekOperation } from './negotiation.ts';
import type { RouterSubscriptions } from './subscriptions/index.ts';

const KEEP_ALIVE_MS = 15_000;
/** A stream whose reader is this far behind is cut (a tick's events are a few KiB). */
const MAX_BEHIND = 1_048_576;

/** The operation text and name a request carries (a GET's query string, a POST's JSON object). */
function sent(req: FastifyRequest): { query?: unknown; operationName?: unknown } {
  if (req.method === 'GET') {
    const q = req.url.indexOf('?');
    const params = new URLSearchParams(q === -1 ? '' : req.url.slice(q + 1));
    return {
      query: params.get('query') ?? undefined,
      operationName: params.get('operationName') ?? undefined,
    };
  }
  const body = req.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/**
 * True when the request is answered with an event stream (`router/negotiation.ts`): the client prefers
 * `text/event-stream`, or accepts it and sends a subscription. The operation is looked at only in the second case,
 * and only when its text mentions `subscription`. A subscription sent by persisted id alone streams only when the
 * client prefers the stream.
 */
export function wantsEventStream(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  return (
    chooseDelivery(accept, () => {
      const { query, operationName } = sent(req);
      if (typeof query !== 'string' || !query.includes('subscription')) return null;
      return peekOperation(query, typeof operationName === 'string' ? operationName : undefined);
    })?.mode === 'event-stream'
  );
}

const nextEvent = (result: ExecutionResult): string => print({ event: 'next', data: result });
const COMPLETE = print({ event: 'complete', data: null });

export interface SseTransport {
  /** Opens the stream `routed` asks for (the router's view of `req`, built by the HTTP mount). */
  serve(req: FastifyRequest, reply: FastifyReply, routed: RouterRequest): Promise<void>;
  /** Open event streams now. */
  open(): number;
  /** Cuts every open stream (no `complete`: clients reconnect) and stops the keep-alive. */
  closeAll(): void;
}

export function sseTransport(subscriptions: RouterSubscriptions): SseTransport {
  /** Each open stream's output, with the response it is piped into. */
  const streams = new Map<PassThrough, ServerResponse>();
  let timer: NodeJS.Timeout | null = null;
  const keepAlive = () => {
    for (const out of streams.keys()) if (out.writableLength < MAX_BEHIND) out.write(':\n\n');
  };
  const track = (out: PassThrough, res: ServerResponse) => {
    streams.set(out, res);
    if (!timer) {
      timer = setInterval(keepAlive, KEEP_ALIVE_MS);
      timer.unref();
    }
  };
  const untrack = (out: PassThrough) => {
    streams.delete(out);
    if (streams.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };

  return {
    open: () => streams.size,
    closeAll() {
      // The connection itself: the response would otherwise wait for the piped stream's end.
      for (const res of [...streams.values()]) res.destroy();
      streams.clear();
      if (timer) clearInterval(timer);
      timer = null;
    },
    async serve(req, reply, routed) {
      const opened = await subscriptions.open(routed);
      noteRequest(req.raw, opened.notes);
      if (opened.kind === 'refused') {
        void reply
          .code(opened.status)
          .headers({ ...opened.headers, 'content-type': 'application/json; charset=utf-8' })
          .send(JSON.stringify({ errors: opened.errors }));
        return;
      }
      const out = new PassThrough();
      void reply
        .code(200)
        .headers({
          ...opened.headers,
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          // nginx: pass each event on at once instead of buffering the stream.
          'x-accel-buffering': 'no',
        })
        .send(out);
      // Some browsers show nothing of a stream until its first bytes.
      out.write(':\n\n');
      if (opened.kind === 'result') {
        out.end(nextEvent(opened.result) + COMPLETE);
        return;
      }
      const stream = opened.stream;
      track(out, reply.raw);
      const gone = () => void stream.return();
      reply.raw.once('close', gone);
      out.once('close', gone);
      for await (const event of stream) {
        if (out.destroyed) break;
        if (out.writableLength > MAX_BEHIND) {
          out.destroy();
          break;
        }
        out.write(nextEvent(event));
      }
      untrack(out);
      if (!out.destroyed) out.end(COMPLETE);
    },
  };
}

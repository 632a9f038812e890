/**
 * Mounts a {@link Router} on Fastify: GET and POST at `path` (default `/graphql`), and `GET <path>/health`; a GET or
 * POST that prefers `Accept: text/event-stream` (or accepts it, for a subscription: `router/negotiation.ts`) is
 * GraphQL over SSE (`router/sse.ts`), every answer with `Vary: Accept`; a WebSocket upgrade of `path` is
 * GraphQL over WebSocket (`router/ws.ts`), both served by the router's subscriptions. On close, the open streams are
 * cut first (their clients reconnect elsewhere), so that they do not hold the drain. PUT, DELETE and PATCH are
 * `405 METHOD_NOT_ALLOWED` with `Allow: GET, POST` (PUT is graphql-sse's single connection mode, not served).
 * Bodies of any media type reach the router, so its CSRF prevention (not Fastify's 415) answers a
 * "simple" cross-site request. A body Fastify cannot read (malformed or empty JSON, over the body limit) still goes
 * to the router, which checks the API key and the budget first and then answers `INVALID_JSON` /
 * `PAYLOAD_TOO_LARGE` in the GraphQL error shape — the codes and messages of the REST APIs. A body longer than the
 * caller's plan allows (`GRAPH_BODY_LIMITS`: 64 KiB without a key) is `PAYLOAD_TOO_LARGE` from its headers. A body
 * the client aborts is logged at debug and not answered.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAborted } from '../src/core/client-aborted.ts';
import { ApiError } from '../src/core/errors.ts';
import { utf8Body } from '../src/core/utf8.ts';
import { noteRequest } from '../src/core/request-notes.ts';
import type { Caller } from '../src/access/access.ts';
import { GRAPH_BODY_LIMITS } from '../src/access/plans.ts';
import { notModified } from '../src/core/conditional.ts';
import { routerErrors } from './errors.ts';
import { routerRequest } from './fastify-request.ts';
import { getAnswerValidators } from './http-cache.ts';
import { refusal } from './http-phase.ts';
import type { RequestHead } from './http-phase.ts';
import type { Router, RouterRequest } from './index.ts';
import { sseTransport, wantsEventStream } from './sse.ts';
import { wsTransport } from './ws.ts';
import { mountMcp } from './mcp/http.ts';

/** Methods answered 405 in the GraphQL error shape (any other but GET and POST gets the host's 404). */
const OTHER_METHODS: readonly string[] = ['PUT', 'DELETE', 'PATCH'];

/** A body over `bytes`, as the router is told. */
const tooLarge = (bytes: number): NonNullable<RouterRequest['bodyError']> => ({
  status: 413,
  code: 'PAYLOAD_TOO_LARGE',
  message: `request body must be at most ${bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : `${bytes / 1024} KiB`}`,
});

/** What the router is told about a body Fastify refused; null for any other error. */
function bodyErrorOf(err: FastifyError): RouterRequest['bodyError'] | null {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge(1_048_576);
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return { status: 400, code: 'INVALID_JSON', message: 'request body must be a valid JSON document' };
  if (err instanceof ApiError && err.code === 'INVALID_JSON')
    return { status: 400, code: err.code, message: err.message };
  if (typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP_') && (err.statusCode ?? 500) < 500)
    return { status: 400, code: 'BAD_REQUEST', message: 'the request body could not be read' };
  return null;
}

export async function mountRouter(app: FastifyInstance, router: Router, path = '/graphql'): Promise<void> {
  const sse = sseTransport(router.subscriptions);
  const ws = wsTransport(app, router.subscriptions, path);
  app.addHook('preClose', (done) => {
    ws.closeAll();
    sse.closeAll();
    done();
  });
  await app.register(async (scope) => {
    // Any other media type as text, for the router to refuse or hand to the engine; UTF-8 only (`src/core/utf8.ts`).
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body: Buffer, done) => {
      try {
        done(null, utf8Body(body));
      } catch (e) {
        done(e as Error, undefined);
      }
    });
    /** The caller `refuseEarly` identified and the head it read, for the router not to do either again. */
    const early = new WeakMap<object, { caller: Caller; head?: RequestHead | undefined }>();
    /** A plain request to the router, or a subscription's event stream, with the caller found before the body. */
    const forward = async (
      req: FastifyRequest,
      reply: FastifyReply,
      bodyError?: RouterRequest['bodyError'],
    ): Promise<FastifyReply | void> => {
      const found = early.get(req.raw);
      const routed = { ...routerRequest(req, bodyError), caller: found?.caller, head: found?.head };
      if (wantsEventStream(req)) return sse.serve(req, reply, routed);
      const res = await router.respond(routed);
      noteRequest(req.raw, res.notes ?? {});
      if (res.stream) {
        // An incremental answer, part by part as it comes (nginx: passed on at once, not buffered). The handler
        // ends with the answer: Fastify would otherwise take it as unanswered and send an empty body.
        const done = new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));
        void reply
          .code(res.status)
          .headers({ ...res.headers, 'x-accel-buffering': 'no' })
          .send(Readable.fromWeb(res.stream as NodeReadableStream<Uint8Array>));
        return done;
      }
      // A document named by id, by GET: cacheable per data snapshot (`router/http-cache.ts`), 304 on a match.
      const validators = getAnswerValidators(req, res);
      if (validators && notModified(req, reply, validators)) return reply;
      // The reply itself, not undefined: an answer whose `onSend` is still under way (a 429 held by the refusal pace)
      // is not sent yet, and Fastify would send an empty one in its place, the held one then failing to write.
      return reply.code(res.status).headers(res.headers).send(res.body);
    };
    /** PUT, DELETE, PATCH: 405, before the key is looked up or the body read. */
    const notAllowed = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const e = routerErrors.methodNotAllowed(req.method);
      noteRequest(req.raw, { refusal: e.code });
      const r = refusal(e, {}, 'application/json; charset=utf-8');
      return reply.code(r.status).headers(r.headers).send(r.body);
    };
    // Before the body is read: a request the router would refuse for its key or a spent budget is answered at once.
    scope.addHook('onRequest', async (req, reply) => {
      if (req.url.startsWith(`${path}/health`)) return;
      if (OTHER_METHODS.includes(req.method)) return notAllowed(req, reply);
      // The answer's type depends on Accept (`router/negotiation.ts`): caches must keep one per Accept.
      const vary = reply.getHeader('vary');
      void reply.header('vary', vary ? `${String(vary)}, Accept` : 'Accept');
      const res = await router.refuseEarly(routerRequest(req));
      if ('caller' in res) {
        if (!res.caller) return;
        early.set(req.raw, { caller: res.caller, head: res.head });
        // A body longer than the caller's plan allows is answered from its headers (then not read).
        const most = GRAPH_BODY_LIMITS[res.caller.plan];
        if (Number(req.headers['content-length'] ?? 0) > most) {
          await forward(req, reply, tooLarge(most));
          return reply;
        }
        return;
      }
      noteRequest(req.raw, res.refused.notes ?? {});
      return reply.code(res.refused.status).headers(res.refused.headers).send(res.refused.body);
    });
    const handler = (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> =>
      forward(req, reply);
    scope.get(path, handler);
    scope.post(path, handler);
    scope.route({ method: [...OTHER_METHODS], url: path, handler: notAllowed });
    scope.setErrorHandler(async (err: FastifyError, req, reply) => {
      if (clientAborted(err, req.raw)) {
        // Gone before its body was read: nothing to answer, nothing wrong here (`src/core/client-aborted.ts`).
        req.log.debug({ code: err.code }, 'request body aborted by the client');
        return reply.hijack();
      }
      const bodyError = bodyErrorOf(err);
      if (bodyError && !reply.sent) return forward(req, reply, bodyError);
      req.log.error({ err }, 'router error');
      return reply
        .code(500)
        .header('content-type', 'application/json; charset=utf-8')
        .send(
          JSON.stringify({
            errors: [{ message: 'internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
          }),
        );
    });
    scope.get(`${path}/health`, async (_req, reply) => {
      const h = router.health();
      return reply.code(h.status === 'UP' ? 200 : 503).send(h);
    });
  });
  // The same graph as MCP tools, for agents (`router/mcp/`), beside it on every process that serves it.
  await app.register(async (scope) => mountMcp(scope, router));
}

/**
 * Error rendering of the host: every error a route throws, every path no route serves and every error Fastify raises
 * before routing become our JSON error body (`ApiError.toBody`). Client mistakes Fastify detects itself (bad JSON,
 * body too large, bad content type, schema validation) are 4xx with a code; a store that does not answer is 503
 * `STORE_UNAVAILABLE` with `Retry-After` (`src/core/store-outage.ts`); anything unexpected is logged and becomes a bare
 * 500.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAborted } from '../../core/client-aborted.ts';
import type { ApiError } from '../../core/errors.ts';
import { clientErrorOf } from '../../core/store-outage.ts';
import { hostErrors } from './errors.ts';

export function registerErrorHandling(app: FastifyInstance): void {
  const bodyLimit = app.initialConfig.bodyLimit ?? 1_048_576;
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (clientAborted(err, req.raw)) {
      // Gone before its body was read: nothing to answer, nothing wrong here (`src/core/client-aborted.ts`).
      req.log.debug({ code: (err as FastifyError).code }, 'request body aborted by the client');
      reply.hijack();
      return;
    }
    const api = clientErrorOf(err) ?? fromFastify(err as FastifyError, req, bodyLimit);
    if (api.status >= 500 && api.code === 'INTERNAL') req.log.error({ err }, 'unhandled error');
    void reply.code(api.status).headers(api.headers).send(api.toBody());
  });
  app.setNotFoundHandler((req, reply) => {
    const e = hostErrors.notFound(req.method, req.url.split('?')[0] ?? '/');
    void reply.code(e.status).send(e.toBody());
  });
}

/**
 * Fastify's `frameworkErrors`: a path that is not valid percent-encoding or a path parameter over its length, met
 * while routing. Answered before any hook runs: what every other answer carries (`nosniff`, the request id) is set
 * here by hand.
 */
export function frameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const e = hostErrors.badUrl(err.message);
  void reply
    .code(e.status)
    .header('x-content-type-options', 'nosniff')
    .header('x-request-id', req.id)
    .send(e.toBody());
}

/**
 * An HTTP/1.1 request without `Host` is 400 `HOST_REQUIRED` (Node's own check, off in the host, answers it with an
 * empty body); the connection closes, as Node's would.
 */
export function requireHost(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (req.headers.host !== undefined || req.raw.httpVersion !== '1.1') return done();
    const e = hostErrors.hostRequired();
    void reply.code(e.status).header('connection', 'close').send(e.toBody());
  });
}

/**
 * The client errors Fastify raises (`fastify/lib/errors.js`) that reach the error handler, in our catalog's words:
 * those of reading a body (`content-type-parser.js`, `handle-request.js`) and the 404 of its fallback route. The
 * routing errors (`FST_ERR_BAD_URL`, `FST_ERR_MAX_PARAM_LENGTH`) are `frameworkErrors`, answered by
 * {@link frameworkError}, and come here only if that changes.
 */
const FASTIFY_CLIENT_ERRORS: Readonly<
  Record<
    string,
    (req: Pick<FastifyRequest, 'method' | 'url'>, bodyLimit: number, err: FastifyError) => ApiError
  >
> = {
  FST_ERR_VALIDATION: (_req, _limit, err) => hostErrors.invalidParameter(err.message),
  FST_ERR_CTP_BODY_TOO_LARGE: (_req, bodyLimit) => hostErrors.payloadTooLarge(bodyLimit),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => hostErrors.unsupportedMediaType(),
  FST_ERR_CTP_INVALID_JSON_BODY: () => hostErrors.invalidJson(),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => hostErrors.invalidJson(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => hostErrors.contentLengthMismatch(),
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: (req) => hostErrors.contentTypeRequired(req.method),
  FST_ERR_NOT_FOUND: (req) => hostErrors.notFound(req.method, req.url.split('?')[0] ?? '/'),
  FST_ERR_BAD_URL: (_req, _limit, err) => hostErrors.badUrl(err.message),
  FST_ERR_MAX_PARAM_LENGTH: (_req, _limit, err) => hostErrors.badUrl(err.message),
};

/**
 * A Fastify error as our answer: a schema's refusal (with `validation`, whatever its code), a client error of {@link FASTIFY_CLIENT_ERRORS}, any other 4xx
 * as 400 `BAD_REQUEST` with Fastify's message (never a code of the framework's), anything else a logged 500.
 */
export function fromFastify(
  err: FastifyError,
  req: Pick<FastifyRequest, 'method' | 'url'>,
  bodyLimit: number,
): ApiError {
  if (err.validation) return hostErrors.invalidParameter(err.message);
  const known = err.code === undefined ? undefined : FASTIFY_CLIENT_ERRORS[err.code];
  if (known) return known(req, bodyLimit, err);
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return hostErrors.badRequest(err.message);
  return hostErrors.internal();
}

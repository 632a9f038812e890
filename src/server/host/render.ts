/**
 * Error rendering of the host: every error a route throws, every path no route serves and every error Fastify raises
 * before routing become our JSON error body (`ApiError.toBody`). Client mistakes Fastify detects itself (bad JSON,
 * body too large, bad content type, schema validation) are 4xx with a code; a store that does not answer is 503
 * `STORE_UNAVAILABLE` with `Retry-After` (`src/core/store-outage.ts`); anything unexpected is logged and becomes a bare
 * 500.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAborted } from '../../core/client-aborted.ts';
import { ApiError } from '../../core/errors.ts';
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
    const api = clientErrorOf(err) ?? fromFastify(err as FastifyError, bodyLimit);
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

function fromFastify(err: FastifyError, bodyLimit: number): ApiError {
  if (err.validation) return hostErrors.invalidParameter(err.message);
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return hostErrors.payloadTooLarge(bodyLimit);
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return hostErrors.unsupportedMediaType();
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return hostErrors.invalidJson();
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, err.code ?? 'BAD_REQUEST', err.message);
  return hostErrors.internal();
}

import type { FastifyError, FastifyInstance } from 'fastify';
import { clientAborted } from '../core/client-aborted.ts';
import { ApiError, notReady } from '../core/errors.ts';
import { clientErrorOf } from '../store/errors.ts';

/** Errors shared by every REST surface. */
export const commonErrors = {
  notFound: (method: string, path: string) =>
    new ApiError(
      404,
      'NOT_FOUND',
      `no endpoint ${method} ${path}: see the OpenAPI document for the paths served`,
    ),
  notReady,
  badRequest: (message: string) => new ApiError(400, 'BAD_REQUEST', message),
  payloadTooLarge: () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'request body must be at most 1 MiB'),
  unsupportedMediaType: () =>
    new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'request body must be application/json'),
  internal: () => new ApiError(500, 'INTERNAL', 'internal error: it has been logged'),
};

/**
 * Maps every error to the JSON error body. Client mistakes Fastify detects itself (bad JSON, body too large, bad
 * content type, schema validation) become 4xx with a code; a store that does not answer is 503 STORE_UNAVAILABLE
 * with `Retry-After` (`src/store/errors.ts`); anything unexpected is logged and becomes a bare 500.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (clientAborted(err, req.raw)) {
      // Gone before its body was read: nothing to answer, nothing wrong here (`src/core/client-aborted.ts`).
      req.log.debug({ code: (err as FastifyError).code }, 'request body aborted by the client');
      reply.hijack();
      return;
    }
    const api = clientErrorOf(err) ?? fromFastify(err as FastifyError);
    if (api.status >= 500 && api.code === 'INTERNAL') req.log.error({ err }, 'unhandled error');
    void reply.code(api.status).headers(api.headers).send(api.toBody());
  });
  app.setNotFoundHandler((req, reply) => {
    const e = commonErrors.notFound(req.method, req.url.split('?')[0] ?? '/');
    void reply.code(e.status).send(e.toBody());
  });
}

function fromFastify(err: FastifyError): ApiError {
  if (err.validation) return new ApiError(400, 'INVALID_PARAMETER', err.message);
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return commonErrors.payloadTooLarge();
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return commonErrors.unsupportedMediaType();
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new ApiError(400, 'INVALID_JSON', 'request body must be a valid JSON document');
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, err.code ?? 'BAD_REQUEST', err.message);
  return commonErrors.internal();
}

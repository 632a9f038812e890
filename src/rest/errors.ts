import type { FastifyError, FastifyInstance } from 'fastify';

/**
 * An error a client can act on: HTTP status, a stable code and a message that says what was expected.
 * Sent as `{ "error": { "code", "message" } }`. Each area keeps its catalog of constructors in its own `errors.ts`.
 * A message that points the caller somewhere (a list of valid values, the call to make first) names a REST path;
 * `graphMessage` says the same in the graph's terms (a query or mutation), and GraphQL errors carry that one.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly graphMessage?: string,
  ) {
    super(message);
  }

  toBody(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/** Errors shared by every REST surface. */
export const commonErrors = {
  notFound: (method: string, path: string) =>
    new ApiError(
      404,
      'NOT_FOUND',
      `no endpoint ${method} ${path}: see the OpenAPI document for the paths served`,
    ),
  notReady: () =>
    new ApiError(
      503,
      'NOT_READY',
      'the service is starting and has not aggregated market data yet: retry shortly',
      {
        'retry-after': '5',
      },
    ),
  badRequest: (message: string) => new ApiError(400, 'BAD_REQUEST', message),
  payloadTooLarge: () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'request body must be at most 1 MiB'),
  unsupportedMediaType: () =>
    new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'request body must be application/json'),
  internal: () => new ApiError(500, 'INTERNAL', 'internal error: it has been logged'),
};

/**
 * Maps every error to the JSON error body. Client mistakes Fastify detects itself (bad JSON, body too large, bad
 * content type, schema validation) become 4xx with a code; anything unexpected is logged and becomes a bare 500.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    const api = err instanceof ApiError ? err : fromFastify(err as FastifyError);
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

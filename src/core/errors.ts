/**
 * The one error type a client can act on, whatever the transport: an HTTP status, a stable code, a message that says
 * what was expected, and optionally response headers (`retry-after`, rate-limit headers), extra GraphQL `extensions`
 * (`cost` on a cost refusal) and the message in the graph's terms. Each area keeps its catalog of constructors in its
 * own `errors.ts`; the REST surface renders it as `{ "error": { "code", "message" } }` (`src/rest/errors.ts`), the
 * graph as a GraphQL error with `extensions.code` (`subgraphs/shared/errors.ts`, `router/engines/hive.ts`).
 *
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
    /** Extra GraphQL `extensions` entries (`cost` on a cost refusal). */
    readonly extensions: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }

  toBody(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/** The service has not aggregated market data yet (both transports answer it while starting). */
export const notReady = (): ApiError =>
  new ApiError(
    503,
    'NOT_READY',
    'the service is starting and has not aggregated market data yet: retry shortly',
    {
      'retry-after': '5',
    },
  );

/**
 * The one error type a client can act on, whatever the transport: an HTTP status, a stable code, a message that says
 * what was expected, and optionally response headers (`retry-after`, rate-limit headers), extra GraphQL `extensions`
 * (`cost` on a cost refusal) and the message in the graph's terms. Each area keeps its catalog of constructors in its
 * own `errors.ts`. It has one REST form, {@link ApiError.toBody} (`{ "error": { "code", "message" } }`, sent by
 * `src/rest/errors.ts`), and one GraphQL form, {@link ApiError.toGraphQL} (made a `GraphQLError` by the subgraphs'
 * `fromApiError` and the router's refusals alike).
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
    // An answer to the client, not a fault of ours: no stack is captured (most of the cost of a refusal otherwise).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }

  toBody(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }

  /**
   * The message (in the graph's terms when it has them) and `extensions`: `code`, the extra entries, and
   * `http.status` with `http.headers` when there are any (the router sets them on its response).
   */
  toGraphQL(): { message: string; extensions: Record<string, unknown> } {
    const headers = Object.keys(this.headers).length > 0 ? { headers: this.headers } : {};
    return {
      message: this.graphMessage ?? this.message,
      extensions: { code: this.code, ...this.extensions, http: { status: this.status, ...headers } },
    };
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

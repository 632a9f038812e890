/**
 * The one error type a client can act on, whatever the transport: an HTTP status, a stable code, a message that says
 * what was expected, and optionally response headers (`retry-after`, rate-limit headers), extra GraphQL `extensions`
 * (`cost` on a cost refusal) and the message in the graph's terms. Each area keeps its catalog of constructors in its
 * own `errors.ts`, built by {@link errorCatalog} (`docs/error-codes.md` lists every code). It has one REST form, {@link ApiError.toBody} (`{ "error": { "code", "message" } }`, sent by
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

  /**
   * The same error about one part of a larger input: its message (and graph form) headed by where the part is, such
   * as `names[2].` for an item of a list checked item by item.
   */
  within(where: string): ApiError {
    const graph = this.graphMessage === undefined ? undefined : `${where}${this.graphMessage}`;
    return new ApiError(
      this.status,
      this.code,
      `${where}${this.message}`,
      this.headers,
      graph,
      this.extensions,
    );
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

/** What a catalog entry's parts are made from: the arguments of its constructor. */
type Part<A extends readonly unknown[], T> = T | ((...args: A) => T);

/**
 * One entry of a catalog: the status and code, and the message (with optionally its graph form, headers and GraphQL
 * `extensions`), fixed or made from the constructor's arguments.
 */
export interface ErrorSpec<A extends readonly unknown[] = never> {
  status: number;
  code: string;
  message: Part<A, string>;
  graphMessage?: Part<A, string>;
  headers?: Part<A, Readonly<Record<string, string>>>;
  extensions?: Part<A, Readonly<Record<string, unknown>>>;
}

/** The arguments of an entry's constructor: those its parts take (none when every part is fixed). */
type ArgsOf<S> = S extends { message: (...args: infer A) => string }
  ? A
  : S extends { graphMessage: (...args: infer A) => string }
    ? A
    : S extends { headers: (...args: infer A) => unknown }
      ? A
      : S extends { extensions: (...args: infer A) => unknown }
        ? A
        : [];

/** A catalog: one constructor of {@link ApiError} per entry, named as the entry. */
export type ErrorCatalog<S extends Record<string, ErrorSpec<never>>> = {
  readonly [K in keyof S]: (...args: ArgsOf<S[K]>) => ApiError;
};

/** A catalog entry as the code table describes it (`scripts/error-codes.ts`). */
export interface CatalogEntry {
  area: string;
  /** The constructor's name in its catalog. */
  name: string;
  status: number;
  code: string;
  spec: ErrorSpec<never>;
}

/** A part of an entry, made from the constructor's arguments when it is a function. */
const part = (p: unknown, args: readonly unknown[]): unknown =>
  typeof p === 'function' ? (p as (...a: readonly unknown[]) => unknown)(...args) : p;

const described = new WeakMap<object, readonly CatalogEntry[]>();

/**
 * An area's error catalog, in the shape of Fastify's `createError` (code → status and message), one constructor per
 * entry: `errorCatalog('market', { coinNotFound: { status: 404, code: 'COIN_NOT_FOUND', message: (id: string) => … } })`
 * gives `coinNotFound(id)`. Entries are named rather than keyed by code because a code may have several messages
 * (`BAD_REQUEST` says what was wrong each time). `area` heads the entries in the code table ({@link catalogEntries}).
 */
export function errorCatalog<const S extends Record<string, ErrorSpec<never>>>(
  area: string,
  specs: S,
): ErrorCatalog<S> {
  const catalog: Record<string, (...args: unknown[]) => ApiError> = {};
  const entries: CatalogEntry[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    const { status, code } = spec;
    catalog[name] = (...args) =>
      new ApiError(
        status,
        code,
        part(spec.message, args) as string,
        part(spec.headers, args) as Record<string, string> | undefined,
        part(spec.graphMessage, args) as string | undefined,
        part(spec.extensions, args) as Record<string, unknown> | undefined,
      );
    entries.push({ area, name, status, code, spec });
  }
  described.set(catalog, entries);
  return catalog as ErrorCatalog<S>;
}

/** The entries of a catalog made by {@link errorCatalog}, in their order (none for any other object). */
export function catalogEntries(catalog: object): readonly CatalogEntry[] {
  return described.get(catalog) ?? [];
}

/** Errors every area may answer. */
export const coreErrors = errorCatalog('core', {
  /** The service has not aggregated market data yet (both transports answer it while starting). */
  notReady: {
    status: 503,
    code: 'NOT_READY',
    message: 'the service is starting and has not aggregated market data yet: retry shortly',
    headers: { 'retry-after': '5' },
  },
  /** A body that is not UTF-8 (`src/core/utf8.ts`). */
  notUtf8: {
    status: 400,
    code: 'INVALID_JSON',
    message: 'request body must be valid UTF-8 (JSON text is UTF-8, RFC 8259): it holds bytes that are not',
  },
});

/** The service has not aggregated market data yet (both transports answer it while starting). */
export const notReady = coreErrors.notReady;

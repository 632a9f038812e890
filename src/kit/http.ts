/**
 * The kit's transport to the router (`POST <baseUrl>/graphql`): persisted documents only — the body is
 * `{ documentId, variables }`, the operation's text lives in the router's manifest (src/kit/generated/
 * persisted-documents.json). Timeouts, the caller's AbortSignal, 429 with `Retry-After`, and GraphQL errors mapped to
 * {@link KitError}. Uses only `fetch`, `AbortController` and timers: browsers and Node ≥ 18 alike.
 */
import { KitError, kitError } from './errors.ts';

/** The `fetch` the kit needs: a structural subset, so any WHATWG-compatible implementation fits. */
export type FetchLike = (
  input: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<ResponseLike>;

export interface ResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface TransportOptions {
  /** The platform's origin (and path prefix, if any); the router is at `${baseUrl}/graphql`. */
  baseUrl: string;
  apiKey: string | undefined;
  fetch: FetchLike;
  timeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
}

/** What a generated persisted document carries (client preset, `mode: replaceDocumentWithHash`). */
export interface PersistedDocument<TResult, TVariables> {
  readonly __meta__?: { readonly hash?: string } | undefined;
  /** Phantom: the result and variables types (`DocumentTypeDecoration` of @graphql-typed-document-node). */
  readonly __apiType?: ((variables: TVariables) => TResult) | undefined;
}

export interface GraphqlError {
  message?: unknown;
  extensions?: {
    code?: unknown;
    http?: { status?: unknown; headers?: Record<string, unknown> };
    retryAfter?: unknown;
  };
}

/** Wait used on a 429 without `Retry-After`: 1 s, 2 s, 4 s, … */
const DEFAULT_BACKOFF_MS = 1_000;

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function retryAfterOf(res: ResponseLike, errors: readonly GraphqlError[]): number | undefined {
  const header = parseRetryAfter(res.headers.get('retry-after'));
  if (header !== undefined) return header;
  for (const e of errors) {
    const h = e.extensions?.http?.headers?.['retry-after'];
    const fromExt = parseRetryAfter(
      typeof h === 'string' ? h : typeof h === 'number' ? String(h) : undefined,
    );
    if (fromExt !== undefined) return fromExt;
    const s = e.extensions?.retryAfter;
    if (typeof s === 'number' && Number.isFinite(s) && s >= 0) return Math.ceil(s * 1000);
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const aborted = (signal: AbortSignal): KitError =>
  kitError('ABORTED', 'the request was aborted by the caller', signal.reason);

function parseBody(text: string): { data?: unknown; errors?: GraphqlError[] } | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const o = v as { data?: unknown; errors?: unknown };
    if (o.errors !== undefined && !Array.isArray(o.errors)) return undefined;
    return o as { data?: unknown; errors?: GraphqlError[] };
  } catch {
    return undefined;
  }
}

export function apiError(
  status: number,
  errors: readonly GraphqlError[],
  retryAfterMs: number | undefined,
): KitError {
  const first = errors[0];
  const code = typeof first?.extensions?.code === 'string' ? first.extensions.code : `HTTP_${status}`;
  const extStatus = first?.extensions?.http?.status;
  const message =
    typeof first?.message === 'string' && first.message
      ? first.message
      : `the API answered HTTP ${status} without an error message`;
  return new KitError({
    source: 'api',
    code,
    message,
    status: status >= 400 ? status : typeof extStatus === 'number' ? extStatus : status,
    retryAfterMs,
    data: errors,
  });
}

export function graphqlUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/graphql`;
}

/** One persisted operation: its typed `data`, or a {@link KitError}. Retries 429 as `Retry-After` says. */
export async function runPersisted<TResult, TVariables>(
  t: TransportOptions,
  doc: PersistedDocument<TResult, TVariables>,
  variables: TVariables,
  signal?: AbortSignal,
): Promise<TResult> {
  return (await exchange(t, doc, variables, signal, false)).data;
}

/** A GraphQL error of a partial answer: its message, code and where in `data` it is. */
export interface PartialError {
  message: string;
  code: string;
  path: readonly (string | number)[];
}

/**
 * {@link runPersisted} for operations whose items may fail one by one (a list of nullable results): `data` with the
 * errors located in it. A failure of the whole operation (no `data`) is still a {@link KitError}.
 */
export async function runPersistedPartial<TResult, TVariables>(
  t: TransportOptions,
  doc: PersistedDocument<TResult, TVariables>,
  variables: TVariables,
  signal?: AbortSignal,
): Promise<{ data: TResult; errors: PartialError[] }> {
  return exchange(t, doc, variables, signal, true);
}

async function exchange<TResult, TVariables>(
  t: TransportOptions,
  doc: PersistedDocument<TResult, TVariables>,
  variables: TVariables,
  signal: AbortSignal | undefined,
  partial: boolean,
): Promise<{ data: TResult; errors: PartialError[] }> {
  const documentId = doc.__meta__?.hash;
  if (!documentId) throw kitError('BAD_RESPONSE', 'internal: the document has no persisted id');
  const url = graphqlUrl(t.baseUrl);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json, application/json',
  };
  if (t.apiKey) headers['x-sp-api-key'] = t.apiKey;
  const body = JSON.stringify({ documentId, variables });

  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw aborted(signal);
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, t.timeoutMs);
    const onAbort = () => ctl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let res: ResponseLike;
    let text: string;
    try {
      res = await t.fetch(url, { method: 'POST', headers, body, signal: ctl.signal });
      text = await res.text();
    } catch (err) {
      if (timedOut) throw kitError('TIMEOUT', `no answer from ${url} within ${t.timeoutMs} ms`, err);
      if (signal?.aborted) throw aborted(signal);
      throw kitError(
        'NETWORK_ERROR',
        `could not reach ${url}: ${err instanceof Error ? err.message : String(err)}`,
        err,
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }

    const parsed = parseBody(text);
    const errors = parsed?.errors ?? [];
    if (res.status === 429) {
      const wait = retryAfterOf(res, errors);
      const delay = wait ?? DEFAULT_BACKOFF_MS * 2 ** attempt;
      if (attempt < t.maxRetries && delay <= t.maxRetryWaitMs) {
        await sleep(delay, signal);
        continue;
      }
      const rateErrors: GraphqlError[] = errors.length
        ? errors
        : [{ message: 'rate limited: too many requests', extensions: { code: 'RATE_LIMITED' } }];
      throw apiError(429, rateErrors, wait ?? delay);
    }
    const hasData = parsed?.data !== null && typeof parsed?.data === 'object';
    // Partial answers keep errors located inside a field's items (path [field, index, …]); any other error fails all.
    const itemErrorsOnly = errors.every((e) => {
      const path = (e as { path?: unknown }).path;
      return Array.isArray(path) && path.length >= 2;
    });
    if (errors.length && !(partial && hasData && res.status === 200 && itemErrorsOnly))
      throw apiError(res.status, errors, retryAfterOf(res, errors));
    if (res.status < 200 || res.status >= 300) throw apiError(res.status, [], undefined);
    if (!parsed || parsed.data === null || typeof parsed.data !== 'object') {
      throw new KitError({
        source: 'kit',
        code: 'BAD_RESPONSE',
        message: `${url} did not answer with GraphQL JSON (HTTP ${res.status}): is baseUrl the platform's origin?`,
        status: res.status,
      });
    }
    return { data: parsed.data as TResult, errors: errors.map(located) };
  }
}

function located(e: GraphqlError): PartialError {
  const path = (e as { path?: unknown }).path;
  return {
    message: typeof e.message === 'string' ? e.message : 'error',
    code: typeof e.extensions?.code === 'string' ? e.extensions.code : 'UNKNOWN',
    path: Array.isArray(path)
      ? (path.filter((p) => typeof p === 'string' || typeof p === 'number') as (string | number)[])
      : [],
  };
}

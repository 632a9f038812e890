/**
 * HTTP for live sources (coin nodes, explorers, FX feeds, Solana RPC): one request to an operator-configured URL,
 * bounded in time and size, with failures classified by a stable reason, and a back-off gate that honours
 * rate-limit answers (429 with `Retry-After`) instead of hammering. Nothing here opens a connection on its own.
 */

/** Stable failure reasons of a source request, counted per source in `/healthz`. */
export type SourceFailure =
  | 'timeout'
  | 'unreachable'
  | 'http_error'
  | 'rate_limited'
  | 'backing_off'
  | 'auth_failed'
  | 'not_json'
  | 'too_large'
  | 'bad_response'
  | 'rpc_error';

/** A failed source request or an answer that cannot be used; `reason` is stable, `message` says what happened. */
export class SourceError extends Error {
  constructor(
    readonly reason: SourceFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The reason of any error a source poll ends with (`bad_response` for anything that is not a `SourceError`). */
export function failureOf(err: unknown): SourceFailure {
  return err instanceof SourceError ? err.reason : 'bad_response';
}

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange (connect, headers, body) must finish within this many ms. */
  timeoutMs: number;
  /** The poll's signal: aborting it aborts the request. */
  signal?: AbortSignal;
  /** Largest body accepted; default 8 MiB. */
  maxBytes?: number;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
}

const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * One HTTP request. Resolves with any status (the caller judges it); rejects with a `SourceError`: `timeout` when
 * the exchange is not done in `timeoutMs` (also a server that sends headers and then hangs), `unreachable` when no
 * connection is made or it breaks before the body is complete (a truncated body), `too_large` past `maxBytes`.
 */
export async function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const where = redact(req.url);
  const failed = (err: unknown): SourceError => {
    if (timeout.aborted)
      return new SourceError('timeout', `${where}: no complete answer within ${req.timeoutMs} ms`);
    if (req.signal?.aborted) return new SourceError('timeout', `${where}: the poll was cut off`);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
    return new SourceError('unreachable', `${where}: ${detail}`);
  };
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method ?? 'GET',
      headers: req.headers ?? {},
      ...(req.body !== undefined ? { body: req.body } : {}),
      signal,
      redirect: 'error',
    });
  } catch (err) {
    throw failed(err);
  }
  const max = req.maxBytes ?? DEFAULT_MAX_BYTES;
  const declared = Number(res.headers.get('content-length'));
  if (declared > max) {
    await res.body?.cancel().catch(() => {});
    throw new SourceError('too_large', `${where}: answer of ${declared} bytes is over the ${max}-byte limit`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  try {
    for (let r = await reader?.read(); r && !r.done; r = await reader?.read()) {
      size += r.value.length;
      if (size > max) throw new SourceError('too_large', `${where}: answer is over the ${max}-byte limit`);
      chunks.push(r.value);
    }
  } catch (err) {
    await reader?.cancel().catch(() => {});
    if (err instanceof SourceError) throw err;
    throw failed(err);
  }
  return { status: res.status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
}

/** Parses a JSON body; `not_json` (with the start of the body, e.g. an HTML error page) when it is not JSON. */
export function jsonBody(res: HttpResponse, where: string): unknown {
  try {
    return JSON.parse(res.text);
  } catch {
    throw new SourceError('not_json', `${where}: HTTP ${res.status}, not JSON: ${preview(res.text)}`);
  }
}

/** The first 80 characters of a body, on one line, for messages. */
export function preview(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${JSON.stringify(one.slice(0, 80))}…` : JSON.stringify(one);
}

/**
 * A URL without its user info and query, and with long opaque path segments (tokens some providers put in the path)
 * shown as `…`, for messages and logs: keys never reach either.
 */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.replace(/[A-Za-z0-9_-]{24,}/g, '…');
    return `${u.protocol}//${u.host}${path}`;
  } catch {
    return '(bad URL)';
  }
}

/** Status codes that mean "slow down": 429 everywhere; Blockchair also answers 402, 430, 434 and 435. */
const RATE_LIMIT_STATUSES = new Set([402, 429, 430, 434, 435]);

/**
 * Back-off after rate-limit answers. `check()` before a request throws `backing_off` while a back-off runs;
 * `observe(res)` after it starts one on a rate-limit status: `Retry-After` (seconds or an HTTP date) when the server
 * sends it, else 60 s doubling with every further rate-limited answer in a row (at most one hour), and then throws
 * `rate_limited`. Any other answer ends the streak.
 */
export class BackoffGate {
  private until = 0;
  private streak = 0;

  constructor(
    private readonly name: string,
    private readonly now: () => number = Date.now,
  ) {}

  check(): void {
    if (this.now() < this.until) {
      throw new SourceError(
        'backing_off',
        `${this.name}: rate limited, no request before ${new Date(this.until).toISOString()}`,
      );
    }
  }

  /**
   * One request through the gate: `backing_off` (nothing sent) while a back-off runs; a rate-limit answer starts one
   * and throws `rate_limited`; any other answer is returned whatever its status (the caller judges it).
   */
  async request(req: HttpRequest): Promise<HttpResponse> {
    this.check();
    const res = await httpRequest(req);
    this.observe(res);
    return res;
  }

  observe(res: HttpResponse): void {
    if (!RATE_LIMIT_STATUSES.has(res.status)) {
      this.streak = 0;
      return;
    }
    this.streak++;
    const fallback = Math.min(3_600_000, 60_000 * 2 ** (this.streak - 1));
    const wait = retryAfterMs(res.headers.get('retry-after'), this.now()) ?? fallback;
    this.until = this.now() + Math.min(wait, 3_600_000);
    throw new SourceError(
      'rate_limited',
      `${this.name}: HTTP ${res.status}, backing off until ${new Date(this.until).toISOString()}`,
    );
  }
}

/** `Retry-After` in ms from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(v: string | null, now: number): number | null {
  if (v === null || v.trim() === '') return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

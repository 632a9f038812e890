/**
 * What a kit's caller hands it, checked before anything is sent: the options of `createSDK` (made the transport's
 * options, with their defaults) and the arguments every method takes (tickers, names, lists, numbers). A bad value is
 * a `KitError` `INVALID_ARGUMENT` whose message says what was expected.
 */
import { kitError } from './errors.ts';
import type { KitError } from './errors.ts';
import type { FetchLike, TransportOptions } from './http.ts';
import { KIT_COINS } from './tickers.ts';
import type { KitTicker } from './tickers.ts';
import type { SDKOptions } from './types.ts';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_WAIT_MS = 30_000;

const TICKERS: ReadonlySet<string> = new Set(KIT_COINS.map((c) => c.ticker));
/** Prefixes of credentials that are not price-API keys (partner, session, operator): never in a kit. */
const NOT_API_KEYS = /^(cwp|cws|cwa)_/;

export const invalid = (message: string): KitError => kitError('INVALID_ARGUMENT', message);

export function checkTicker(t: unknown): asserts t is KitTicker {
  if (typeof t === 'string' && TICKERS.has(t)) return;
  const hint =
    typeof t === 'string' && TICKERS.has(t.toUpperCase())
      ? ` (tickers are uppercase: ${t.toUpperCase()})`
      : '';
  throw invalid(`unknown ticker ${JSON.stringify(t)}${hint}: one of ${[...TICKERS].join(' ')}`);
}

export function checkName(name: unknown, where = ''): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '')
    throw invalid(`${where}name must be a non-empty string such as alice.coin`);
}

/** A non-empty array of non-empty strings, without repeats. */
export function stringList(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || v.length === 0) throw invalid(`${what} must be a non-empty array of strings`);
  for (const x of v) {
    if (typeof x !== 'string' || x.trim() === '')
      throw invalid(`${what} must hold non-empty strings, got ${JSON.stringify(x)}`);
  }
  return [...new Set(v as string[])];
}

/** A finite number of at least `min`; `def` when left out. */
export function positive(v: number | undefined, def: number, what: string, min = 0): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min)
    throw invalid(`${what} must be a number ≥ ${min}`);
  return v;
}

/** The transport's options from `createSDK`'s: the base URL's origin and path, the key, fetch, timeouts, retries. */
export function transportOf(o: SDKOptions): TransportOptions {
  if (typeof o !== 'object' || o === null) throw invalid('createSDK needs options: { baseUrl, apiKey? }');
  let base: URL;
  try {
    base = new URL(o.baseUrl);
  } catch {
    throw invalid(
      `baseUrl must be the platform's http(s) URL, e.g. https://api.coinwallet.app; got ${JSON.stringify(o.baseUrl)}`,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw invalid('baseUrl must be an http(s) URL');
  if (o.apiKey !== undefined && (typeof o.apiKey !== 'string' || o.apiKey.trim() === '')) {
    throw invalid('apiKey must be a non-empty string (or left out)');
  }
  if (o.apiKey && NOT_API_KEYS.test(o.apiKey)) {
    throw invalid(
      'apiKey takes a price-API key only: partner credentials, session and operator tokens never go into a kit',
    );
  }
  const f: FetchLike | undefined =
    o.fetch ??
    (typeof globalThis.fetch === 'function' ? (globalThis.fetch.bind(globalThis) as FetchLike) : undefined);
  if (!f) throw invalid('no fetch: pass options.fetch (the global fetch needs a browser or Node ≥ 18)');
  return {
    baseUrl: `${base.origin}${base.pathname.replace(/\/+$/, '')}`,
    apiKey: o.apiKey,
    fetch: f,
    timeoutMs: positive(o.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs', 1),
    maxRetries: Math.floor(positive(o.maxRetries, DEFAULT_MAX_RETRIES, 'maxRetries')),
    maxRetryWaitMs: positive(o.maxRetryWaitMs, DEFAULT_MAX_RETRY_WAIT_MS, 'maxRetryWaitMs'),
  };
}

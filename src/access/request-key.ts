/**
 * Where a request may carry its API key. Ours first; CoinGecko's names are aliases, so a CoinGecko SDK configured
 * with one of our keys works unchanged.
 */
export const KEY_HEADERS = ['x-sp-api-key', 'x-cg-pro-api-key', 'x-cg-demo-api-key'] as const;
export const KEY_QUERY_PARAMS = ['x_sp_api_key', 'x_cg_pro_api_key', 'x_cg_demo_api_key'] as const;

export type RequestKey =
  | { kind: 'none' }
  | { kind: 'one'; key: string }
  /** Two different values were sent (in two places, or one place twice). */
  | { kind: 'conflict' }
  /** A value that cannot be a key (a query parameter parsed into an object). */
  | { kind: 'invalid' };

/**
 * The API key a request carries. Empty values count as absent; the same value sent in several places is one key;
 * two different values are a conflict the caller refuses rather than guess between.
 */
export function requestKey(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  query: Readonly<Record<string, unknown>>,
): RequestKey {
  // Plain loops (this runs on every request): the one value seen, whether a second differs, whether one is no string.
  let key: string | undefined;
  let conflict = false;
  let invalid = false;
  const values: unknown[] = [];
  for (const h of KEY_HEADERS) if (headers[h] !== undefined) values.push(headers[h]);
  for (const q of KEY_QUERY_PARAMS) if (query[q] !== undefined) values.push(query[q]);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) {
      values.push(...(v as unknown[]));
      continue;
    }
    if (typeof v !== 'string') {
      invalid = true;
      continue;
    }
    const s = v.trim();
    if (!s) continue;
    if (key === undefined) key = s;
    else if (key !== s) conflict = true;
  }
  if (conflict) return { kind: 'conflict' };
  if (invalid) return { kind: 'invalid' };
  return key === undefined ? NONE : { kind: 'one', key };
}

const NONE: RequestKey = { kind: 'none' };

const KEY_PARAM_SET: ReadonlySet<string> = new Set(KEY_QUERY_PARAMS);

/**
 * The URL with API-key query values replaced by `[redacted]`, for request logs, which must never hold a key. Names
 * are compared after percent-decoding, as the query parser sees them. (Fastify's default serializers log no headers.)
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  // A key parameter's name has `api_key` in it, or a percent-encoded form of it: without either, nothing to blank.
  if (!url.includes('api_key', q) && !url.includes('%', q)) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  const parts = url.slice(q + 1, end).split('&');
  const out = parts.map((p) => {
    const eq = p.indexOf('=');
    const raw = eq < 0 ? p : p.slice(0, eq);
    return KEY_PARAM_SET.has(decodeName(raw)) ? `${raw}=[redacted]` : p;
  });
  return url.slice(0, q + 1) + out.join('&') + url.slice(end);
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

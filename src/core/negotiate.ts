/**
 * Content negotiation by the `Accept` header (RFC 9110 §12.5.1), as a pure function: which of the types a resource
 * has the client prefers. One rule for every route that serves more than one type (the landing page, `/graphql`).
 *
 * - Each offered type takes the quality (`q`, default 1) of the most specific range that matches it
 *   (`type/subtype;param=value` over `type/subtype` over `type/*` over `*\/*`); `q=0` refuses it.
 * - The highest quality wins; between equal qualities the more specific range, then the range the client listed
 *   first, then the order of `offered`.
 * - No `Accept` header (or an empty one) accepts anything: the first offered type.
 * - Types, subtypes, parameter names and parameter values compare case-insensitively (`Application/JSON`).
 * - A range's parameters (those before `q`; what follows `q` is accept-ext) must all be parameters of the offered
 *   type: `multipart/mixed;deferSpec=20220824` matches only an offered type that carries that parameter. `charset`
 *   is the exception: every representation here is UTF-8, so `charset=utf-8` matches any offered type and another
 *   charset none.
 * - A range that is not `type/subtype` or a `q` that is not a number from 0 to 1 is skipped.
 */

interface Range {
  type: string;
  subtype: string;
  /** Parameters other than `q` and `charset`, lowercase, quotes removed. */
  params: [string, string][];
  /** False when the range names a charset other than UTF-8 (nothing here is served in it). */
  utf8: boolean;
  q: number;
  /** 3 for `type/subtype;params`, 2 for `type/subtype`, 1 for `type/*`, 0 for `*\/*`. */
  specificity: number;
  index: number;
}

const TOKEN = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** A parameter's `[name, value]`, lowercase and unquoted; null when it is not `token=value`. */
function param(p: string): [string, string] | null {
  const eq = p.indexOf('=');
  if (eq <= 0) return null;
  const name = p.slice(0, eq).trim();
  let value = p.slice(eq + 1).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return TOKEN.test(name) ? [name, value] : null;
}

function parseRanges(accept: string): Range[] {
  const out: Range[] = [];
  accept.split(',').forEach((part, index) => {
    const [mediaRange = '', ...rest] = part.split(';').map((s) => s.trim().toLowerCase());
    const m = /^([a-z0-9!#$%&'*+.^_`|~-]+)\/([a-z0-9!#$%&'*+.^_`|~-]+)$/.exec(mediaRange);
    if (!m) return;
    const [, type = '', subtype = ''] = m;
    if (type === '*' && subtype !== '*') return;
    let q = 1;
    let utf8 = true;
    const params: [string, string][] = [];
    for (const raw of rest) {
      const p = param(raw);
      if (!p) continue;
      const [k, v] = p;
      if (k === 'q') {
        if (!/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(v)) return;
        q = Number(v);
        break; // what follows q is accept-ext, not media-type parameters
      }
      if (k === 'charset') utf8 = v === 'utf-8';
      else params.push(p);
    }
    const specificity = type === '*' ? 0 : subtype === '*' ? 1 : params.length ? 3 : 2;
    out.push({ type, subtype, params, utf8, q, specificity, index });
  });
  return out;
}

/** An offered type split into its type, subtype and parameters (lowercase). */
function offeredParts(offered: string): { t: string; s: string; params: Map<string, string> } {
  const [mediaType = '', ...rest] = offered.split(';').map((x) => x.trim().toLowerCase());
  const [t = '', s = ''] = mediaType.split('/');
  const params = new Map<string, string>();
  for (const raw of rest) {
    const p = param(raw);
    if (p) params.set(p[0], p[1]);
  }
  return { t, s, params };
}

/**
 * The type of `offered` (`type/subtype`, optionally with parameters, in the server's order of preference) the
 * `accept` header prefers, as written in `offered`; null when it accepts none of them.
 */
export function preferredType(accept: string | undefined, offered: readonly string[]): string | null {
  if (accept === undefined || accept.trim() === '') return offered[0] ?? null;
  const ranges = parseRanges(accept);
  let best: { type: string; q: number; specificity: number; index: number } | null = null;
  for (const type of offered) {
    const { t, s, params } = offeredParts(type);
    let match: Range | null = null;
    for (const r of ranges) {
      const fits =
        (r.type === '*' || r.type === t) &&
        (r.subtype === '*' || r.subtype === s) &&
        r.utf8 &&
        r.params.every(([k, v]) => params.get(k) === v);
      if (!fits) continue;
      // The most specific range decides; between two equally specific, the higher quality.
      if (
        !match ||
        r.specificity > match.specificity ||
        (r.specificity === match.specificity && r.q > match.q)
      )
        match = r;
    }
    if (!match || match.q === 0) continue;
    const better =
      !best ||
      match.q > best.q ||
      (match.q === best.q && match.specificity > best.specificity) ||
      (match.q === best.q && match.specificity === best.specificity && match.index < best.index);
    if (better) best = { type, q: match.q, specificity: match.specificity, index: match.index };
  }
  return best?.type ?? null;
}

/**
 * A `Content-Type` value with its type, subtype and parameter names in lowercase (`APPLICATION/JSON; Charset=UTF-8`
 * → `application/json; charset=UTF-8`), so that code comparing media types as strings sees them as HTTP does.
 * Parameter values keep their case (a multipart boundary is case-sensitive).
 */
export function normaliseMediaType(value: string): string {
  const [mediaType = '', ...params] = value.split(';');
  const out = [mediaType.trim().toLowerCase()];
  for (const p of params) {
    const eq = p.indexOf('=');
    const t = p.trim();
    if (t === '') continue;
    out.push(
      eq === -1 ? t.toLowerCase() : `${p.slice(0, eq).trim().toLowerCase()}=${p.slice(eq + 1).trim()}`,
    );
  }
  return out.join('; ');
}

/**
 * The content coding of `offered` (in the server's order of preference, e.g. `br`, `gzip`) the `Accept-Encoding`
 * header prefers (RFC 9110 §12.5.3), or `identity` (no coding) when it accepts none of them: the highest q-value
 * wins, then the server's order; a coding takes the q of its own entry, else of `*`; `q=0` refuses it. No header
 * means no coding (a client that did not ask may not decode one). Codings compare case-insensitively. The
 * representation is always sent when no coding is acceptable, even if `identity;q=0` asked otherwise: a 406 would
 * help no client.
 */
export function preferredCoding(acceptEncoding: string | undefined, offered: readonly string[]): string {
  if (acceptEncoding === undefined) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!TOKEN.test(coding)) continue;
    let value = 1;
    for (const raw of params) {
      const p = param(raw);
      if (p?.[0] !== 'q') continue;
      value = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(p[1]) ? Number(p[1]) : NaN;
    }
    if (!Number.isNaN(value) && !q.has(coding)) q.set(coding, value);
  }
  let best = 'identity';
  let bestQ = 0;
  for (const coding of offered) {
    const v = q.get(coding) ?? q.get('*') ?? 0;
    if (v > bestQ) {
      best = coding;
      bestQ = v;
    }
  }
  return best;
}

/**
 * Content negotiation by the `Accept` header (RFC 9110 §12.5.1), as a pure function: which of the types a resource
 * has the client prefers.
 *
 * - Each offered type takes the quality (`q`, default 1) of the most specific range that matches it
 *   (`type/subtype` over `type/*` over `*\/*`); `q=0` refuses it.
 * - The highest quality wins; between equal qualities the more specific range, then the range the client listed
 *   first, then the order of `offered`.
 * - No `Accept` header (or an empty one) accepts anything: the first offered type.
 * - Media-type parameters other than `q` are ignored (`application/json; charset=utf-8` is JSON); a range that is not
 *   `type/subtype` or a `q` that is not a number from 0 to 1 is skipped.
 */

interface Range {
  type: string;
  subtype: string;
  q: number;
  /** 2 for `type/subtype`, 1 for `type/*`, 0 for `*\/*`. */
  specificity: number;
  index: number;
}

function parseRanges(accept: string): Range[] {
  const out: Range[] = [];
  accept.split(',').forEach((part, index) => {
    const [mediaRange = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const m = /^([a-z0-9!#$%&'*+.^_`|~-]+)\/([a-z0-9!#$%&'*+.^_`|~-]+)$/.exec(mediaRange);
    if (!m) return;
    const [, type = '', subtype = ''] = m;
    if (type === '*' && subtype !== '*') return;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k !== 'q') continue;
      if (v === undefined || !/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(v)) return;
      q = Number(v);
      break; // what follows q is accept-ext, not media-type parameters
    }
    const specificity = type === '*' ? 0 : subtype === '*' ? 1 : 2;
    out.push({ type, subtype, q, specificity, index });
  });
  return out;
}

/**
 * The type of `offered` (`type/subtype`, lowercase, in the server's order of preference) the `accept` header prefers;
 * null when it accepts none of them.
 */
export function preferredType(accept: string | undefined, offered: readonly string[]): string | null {
  if (accept === undefined || accept.trim() === '') return offered[0] ?? null;
  const ranges = parseRanges(accept);
  let best: { type: string; q: number; specificity: number; index: number } | null = null;
  for (const type of offered) {
    const [t, s] = type.split('/');
    let match: Range | null = null;
    for (const r of ranges) {
      const fits = (r.type === '*' || r.type === t) && (r.subtype === '*' || r.subtype === s);
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

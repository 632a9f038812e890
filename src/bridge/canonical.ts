/**
 * Canonical JSON of a proof-of-reserves report, the bytes the attestation signs: object keys sorted (by UTF-16 code
 * units, JavaScript's default sort), no whitespace, strings and integers as `JSON.stringify` writes them, arrays in
 * order. Amounts are decimal strings in base units, so the only numbers are safe integers (heights, slots,
 * decimals). For these value types this is RFC 8785 (JCS). A client recomputes it from the response body alone.
 */
export type CanonicalValue =
  string | number | boolean | null | readonly CanonicalValue[] | { readonly [k: string]: CanonicalValue };

export function canonicalJson(v: unknown): string {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new TypeError(`canonical JSON allows safe integers only, got ${v}`);
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => {
        if (o[k] === undefined) throw new TypeError(`canonical JSON has no undefined (key "${k}")`);
        return `${JSON.stringify(k)}:${canonicalJson(o[k])}`;
      })
      .join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof v}`);
}

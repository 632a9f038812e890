/**
 * JSON with exact numbers. Coin nodes print amounts as JSON numbers with 8 decimals (`"amount": 1234.56789012`),
 * and Dogecoin's totals exceed 2^53 base units, so `JSON.parse` can change the last digits. `parseExactJson` keeps
 * every number as its source text (a {@link JsonNumber}); `toUnits` turns such a text into base units exactly.
 */

/** A JSON number as written in the source text. */
export class JsonNumber {
  constructor(readonly text: string) {}
  /** The nearest double (fine for heights, times, difficulties; not for amounts). */
  valueOf(): number {
    return Number(this.text);
  }
}

class ParseError extends Error {}

/** Parses JSON text like `JSON.parse`, but numbers become {@link JsonNumber}s. Throws `SyntaxError` on bad input. */
export function parseExactJson(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new ParseError(`${what} at position ${i}`);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = string();
        ws();
        if (text[i++] !== ':') fail('expected ":"');
        o[k] = value();
        ws();
        const d = text[i++];
        if (d === '}') return o;
        if (d !== ',') fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return a;
        if (d !== ',') fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected character');
    i += m[0].length;
    return new JsonNumber(m[0]);
  };
  const string = (): string => {
    // From the opening quote to the closing one, escapes included; JSON.parse decodes it.
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  try {
    const v = value();
    ws();
    if (i !== text.length) fail('unexpected text after the value');
    return v;
  } catch (err) {
    throw new SyntaxError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * A decimal amount in coins (`"12.5"`, `"0.00000001"`, a {@link JsonNumber} or an integer-only string) as base
 * units with `decimals` places, exactly. Null for anything else: a sign, an exponent, more places than `decimals`.
 */
export function toUnits(v: JsonNumber | string, decimals = 8): bigint | null {
  const text = typeof v === 'string' ? v : v.text;
  const m = /^(0|[1-9]\d*)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > decimals) {
    // Trailing zeros beyond the precision are harmless ("1.000000000").
    if (!/^0*$/.test(frac.slice(decimals))) return null;
  }
  return (
    BigInt(m[1] as string) * 10n ** BigInt(decimals) + BigInt(frac.slice(0, decimals).padEnd(decimals, '0'))
  );
}

/** A {@link JsonNumber} or plain number as a double; undefined for anything else. */
export function numberOf(v: unknown): number | undefined {
  const n = v instanceof JsonNumber ? Number(v.text) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** `12345678900n, 8` → `123.456789`: base units to a decimal string, trailing zeros dropped. Pure (host page too). */
export function formatUnits(v: bigint, decimals: number): string {
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(decimals + 1, '0');
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${s.slice(0, s.length - decimals)}${frac ? `.${frac}` : ''}`;
}

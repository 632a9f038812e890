/**
 * Pure SVG builders of the image routes: a coin's badge (its ticker on its colour) and its 7-day sparkline. Same
 * input, same bytes: no dates, no random ids, numbers written with at most two decimals.
 */
import { coinColor } from '../../catalog/colors.ts';

/** What a badge or sparkline names: a catalog coin. */
export interface CoinLabel {
  id: string;
  symbol: string;
  name: string;
}

/** `&`, `<`, `>`, `"` and `'` escaped, for text and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}

/** A coordinate or size with at most two decimals and no trailing zeros (`12`, `12.5`, `12.35`). */
const num = (v: number): string => String(Math.round(v * 100) / 100);

/** The accessible name of a coin: `Litecoin (LTC)`. */
export const coinTitle = (c: CoinLabel): string => `${c.name} (${c.symbol.toUpperCase()})`;

/** Side of the square badge, in pixels (its `width`/`height`; the `viewBox` lets it scale to any size). */
export const BADGE_SIZE = 64;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/**
 * The badge of a coin: a filled circle in the coin's colour ({@link coinColor}) with its uppercase ticker in the
 * contrasting text colour, sized to fit inside the circle (longer tickers get a smaller font). `role="img"` with
 * an `aria-label` and a `<title>` naming the coin.
 */
export function badgeSvg(coin: CoinLabel): string {
  const { fill, text } = coinColor(coin.id);
  const ticker = coin.symbol.toUpperCase();
  const title = escapeXml(coinTitle(coin));
  const half = BADGE_SIZE / 2;
  // About 0.68 em per bold glyph; the text stays within ~72 % of the diameter.
  const fontSize = Math.min(24, (BADGE_SIZE * 0.72) / (0.68 * Math.max(1, ticker.length)));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${BADGE_SIZE}" height="${BADGE_SIZE}" ` +
    `viewBox="0 0 ${BADGE_SIZE} ${BADGE_SIZE}" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<circle cx="${half}" cy="${half}" r="${half}" fill="${fill}"/>` +
    `<text x="${half}" y="${half}" dy="0.35em" text-anchor="middle" font-family="${escapeXml(FONT)}" ` +
    `font-size="${num(fontSize)}" font-weight="700" fill="${text}">${escapeXml(ticker)}</text>` +
    `</svg>\n`
  );
}

/** Drawing box of a sparkline: CoinGecko's sparkline image size, with padding so the stroke is never clipped. */
export const SPARKLINE_BOX = { width: 135, height: 50, pad: 2 } as const;
/** Stroke of a week that ended at or above its start, and of one that ended below. */
export const SPARKLINE_UP = '#16A34A';
export const SPARKLINE_DOWN = '#DC2626';

/**
 * The polyline points of `values` (oldest first) in {@link SPARKLINE_BOX}: evenly spaced from left to right, the
 * highest value at the top edge and the lowest at the bottom (inside the padding). A flat series is drawn across
 * the middle; a single value at the centre.
 */
export function sparklinePoints(values: readonly number[]): [x: number, y: number][] {
  const { width, height, pad } = SPARKLINE_BOX;
  const n = values.length;
  if (n === 0) return [];
  const max = Math.max(...values);
  const min = Math.min(...values);
  const range = max - min;
  const step = n > 1 ? (width - 2 * pad) / (n - 1) : 0;
  return values.map((v, i) => [
    n > 1 ? pad + i * step : width / 2,
    range > 0 ? pad + ((max - v) / range) * (height - 2 * pad) : height / 2,
  ]);
}

/**
 * The 7-day sparkline of a coin from its hourly USD closes (oldest first): one polyline point per value, green
 * when the last close is at or above the first, red below; the accessible name states the week's change. No
 * values → a valid empty image whose name says there is no history. Non-finite values are not expected (closes of
 * real bars) and are dropped rather than drawn.
 */
export function sparklineSvg(coin: CoinLabel, closes: readonly number[]): string {
  const values = closes.filter(Number.isFinite);
  const { width, height } = SPARKLINE_BOX;
  const first = values[0];
  const last = values[values.length - 1];
  let label = `${coinTitle(coin)}: price over 7 days in USD`;
  if (first === undefined || last === undefined) label = `${coinTitle(coin)}: no 7-day price history`;
  else if (first > 0) {
    const change = (last / first - 1) * 100;
    label += `, ${change >= 0 ? 'up' : 'down'} ${Math.abs(change).toFixed(2)} %`;
  }
  const title = escapeXml(label);
  const head =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}"><title>${title}</title>`;
  if (first === undefined || last === undefined) return `${head}</svg>\n`;
  const points = sparklinePoints(values)
    .map(([x, y]) => `${num(x)},${num(y)}`)
    .join(' ');
  const stroke = last >= first ? SPARKLINE_UP : SPARKLINE_DOWN;
  return (
    `${head}<polyline points="${points}" fill="none" stroke="${stroke}" stroke-width="1.5" ` +
    `stroke-linejoin="round" stroke-linecap="round"/></svg>\n`
  );
}

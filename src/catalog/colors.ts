/**
 * The colour of each catalog coin, for the generated image badges (`/assets/coins/<id>.svg`).
 *
 * Brand colours are listed only where the project's own published mark uses one colour we are sure of (Bitcoin's
 * orange, Litecoin's blue…). Every other coin — 16 of the 19 kit coins, and the majors whose mark is black, a
 * gradient or not certain to us — gets a colour derived from its id: stable across releases, distinct enough
 * between neighbours, never presented as the coin's brand. An operator who wants real logos drops them into
 * `COIN_IMAGES_DIR` instead.
 */

/** Brand colours (`#RRGGBB`, uppercase) by coin id. Ids not listed get {@link derivedColor}. */
export const BRAND_COLORS: ReadonlyMap<string, string> = new Map([
  // Kit coins whose brand colour is well established; the other 16 are derived.
  ['litecoin', '#345D9D'],
  ['dogecoin', '#C2A633'],
  ['digibyte', '#0066CC'],
  // Majors.
  ['bitcoin', '#F7931A'],
  ['ethereum', '#627EEA'],
  ['tether', '#26A17B'],
  ['ripple', '#23292F'],
  ['binancecoin', '#F3BA2F'],
  ['solana', '#9945FF'],
  ['usd-coin', '#2775CA'],
  ['tron', '#EF0027'],
  ['cardano', '#0033AD'],
  ['chainlink', '#375BD2'],
  ['bitcoin-cash', '#0AC18E'],
  ['sui', '#4DA2FF'],
  ['avalanche-2', '#E84142'],
  ['the-open-network', '#0098EA'],
  ['monero', '#FF6600'],
  ['dai', '#F5AC37'],
  ['polkadot', '#E6007A'],
  ['uniswap', '#FF007A'],
  ['aave', '#B6509E'],
  ['ethereum-classic', '#328332'],
  ['cosmos', '#2E3148'],
  ['polygon-ecosystem-token', '#8247E5'],
  ['arbitrum', '#28A0F0'],
  ['optimism', '#FF0420'],
  ['vechain', '#15BDFF'],
  ['filecoin', '#0090FF'],
  ['kaspa', '#70C7BA'],
  ['stacks', '#5546FF'],
  ['the-graph', '#6747ED'],
  ['maker', '#1AAB9B'],
  ['tezos', '#2C7DF7'],
  ['zcash', '#F4B728'],
  ['dash', '#008CE7'],
  ['bitcoin-cash-sv', '#EAB300'],
  ['yearn-finance', '#006AE3'],
  ['binance-usd', '#F0B90B'],
  ['decred', '#2ED6A1'],
  ['ravencoin', '#384182'],
]);

export interface CoinColor {
  /** Background, `#RRGGBB`. */
  fill: string;
  /** Text on it: white or black, whichever contrasts more (WCAG 2 contrast ratio). */
  text: string;
  /** `brand`: from {@link BRAND_COLORS}; `derived`: from the id. */
  source: 'brand' | 'derived';
}

/** The badge colours of coin `id`: its brand colour when listed, else {@link derivedColor}. */
export function coinColor(id: string): CoinColor {
  const brand = BRAND_COLORS.get(id);
  const fill = brand ?? derivedColor(id);
  return { fill, text: textOn(fill), source: brand ? 'brand' : 'derived' };
}

/**
 * A stable colour for an id: the hue from a 32-bit FNV-1a hash of the id (0–359°), saturation 55 %, lightness
 * 42 % (dark enough for white text on most hues). The same id gives the same colour in every release.
 */
export function derivedColor(id: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return hslToHex(h % 360, 0.55, 0.42);
}

/** `#RRGGBB` (uppercase) of an HSL colour: hue in degrees, saturation and lightness in [0, 1]. */
export function hslToHex(hue: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`.toUpperCase();
}

const WHITE = '#FFFFFF';
const INK = '#000000';

/** White or black text for background `hex`, whichever has the higher WCAG 2 contrast ratio. */
export function textOn(hex: string): string {
  return contrast(hex, WHITE) >= contrast(hex, INK) ? WHITE : INK;
}

/** WCAG 2 relative luminance of `#RRGGBB`. */
export function luminance(hex: string): number {
  const lin = (i: number): number => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
}

/** WCAG 2 contrast ratio of two `#RRGGBB` colours (1–21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

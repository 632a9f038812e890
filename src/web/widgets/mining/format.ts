/**
 * How the mining calculator writes its figures (pure; the locale is the page's). The widget also puts each figure's
 * full-precision value in a `data-value` attribute, so nothing is lost to this rounding.
 */

const DASH = '—';

function numberFormat(locale: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, opts);
  } catch {
    return new Intl.NumberFormat('en', opts);
  }
}

/** An amount: 2 decimals from 1 up, 4 significant digits below 1 (0 is `0`). */
function amountOptions(x: number): Intl.NumberFormatOptions {
  return Math.abs(x) >= 1 || x === 0
    ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
    : { maximumSignificantDigits: 4 };
}

/** Coins: up to 6 significant digits below 1,000, 2 decimals above (`0.022572`, `12,345.68`). */
export function formatCoins(x: number | null, locale: string): string {
  if (x === null) return DASH;
  const opts: Intl.NumberFormatOptions =
    Math.abs(x) >= 1000 ? { maximumFractionDigits: 2 } : { maximumSignificantDigits: 6 };
  return numberFormat(locale, opts).format(x);
}

/**
 * Money in `currency` (a code of the graph's `currencies`, lowercase): ISO codes with the locale's symbol
 * (`$7.91`, `€0.1234`), other codes (`sats`, `bits`) as a number and the code (`1,234.00 SATS`).
 */
export function formatMoney(x: number | null, currency: string, locale: string): string {
  if (x === null) return DASH;
  const code = currency.toUpperCase();
  const opts = amountOptions(x);
  if (/^[A-Z]{3}$/.test(code)) {
    try {
      return new Intl.NumberFormat(locale, {
        ...opts,
        style: 'currency',
        currency: code,
        currencyDisplay: 'narrowSymbol',
      }).format(x);
    } catch {
      // a locale the runtime does not know: below
    }
  }
  return `${numberFormat(locale, opts).format(x)} ${code}`;
}

/** A plain figure with `digits` significant digits (difficulty, rewards). */
export function formatFigure(x: number | null, locale: string, digits = 8): string {
  if (x === null) return DASH;
  return numberFormat(locale, { maximumSignificantDigits: digits }).format(x);
}

const RATE_UNITS = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'] as const;

/** A hashrate in H/s with the largest unit that keeps it ≥ 1, 3 significant digits (`1.10 PH/s`). */
export function formatHashrate(hs: number | null, locale: string): string {
  if (hs === null) return DASH;
  let i = 0;
  let v = hs;
  while (Math.abs(v) >= 1000 && i < RATE_UNITS.length - 1) {
    v /= 1000;
    i++;
  }
  return `${numberFormat(locale, { minimumSignificantDigits: 3, maximumSignificantDigits: 3 }).format(v)} ${RATE_UNITS[i]}`;
}

/** Seconds between blocks: `60 s` up to two minutes, then minutes (`2.5 min`, `10 min`). */
export function formatBlockTime(seconds: number | null, locale: string): string {
  if (seconds === null) return DASH;
  if (seconds < 120) return `${numberFormat(locale, { maximumFractionDigits: 1 }).format(seconds)} s`;
  return `${numberFormat(locale, { maximumFractionDigits: 2 }).format(seconds / 60)} min`;
}

/** A share of the network as a percentage with 3 significant digits (`0.000633 %`). */
export function formatShare(share: number | null, locale: string): string {
  if (share === null) return DASH;
  return `${numberFormat(locale, { maximumSignificantDigits: 3 }).format(share * 100)} %`;
}

/** A time as `YYYY-MM-DD HH:MM UTC` (unambiguous for any reader); `unknown` when null or unreadable. */
export function formatTime(t: string | number | null): string {
  if (t === null) return 'unknown';
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return 'unknown';
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

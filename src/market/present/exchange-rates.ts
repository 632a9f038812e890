/**
 * `/exchange_rates`: how much of every supported currency one bitcoin buys, in CoinGecko's shape
 * `{ rates: { <code>: { name, unit, value, type } } }`, from our own bitcoin price and our FX rates. A rate we do not
 * hold is `null`, never carried over from an older day.
 */
import type { CurrencyInfo, CurrencyKind } from '../../catalog/types.ts';
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import { pct } from './common.ts';

/** CoinGecko's `type`: metals are commodities; bits and sats are crypto units. */
const TYPE: Readonly<Record<CurrencyKind, 'fiat' | 'crypto' | 'commodity'>> = {
  fiat: 'fiat',
  crypto: 'crypto',
  unit: 'crypto',
  metal: 'commodity',
};
const UNIT_SIGNS: Readonly<Record<string, string>> = { bits: 'μBTC', sats: 'sats' };

/**
 * The unit sign of a currency: the ISO 4217 currency's symbol as Node's ICU data writes it in English (`$`, `€`,
 * `¥`), `μBTC` and `sats` for the units, else the uppercase code (`BTC`, `XAU`).
 */
export function unitOf(c: CurrencyInfo): string {
  const special = UNIT_SIGNS[c.code];
  if (special) return special;
  if (c.kind === 'fiat') {
    try {
      const parts = new Intl.NumberFormat('en', {
        style: 'currency',
        currency: c.code.toUpperCase(),
        currencyDisplay: 'narrowSymbol',
      }).formatToParts(0);
      const sign = parts.find((p) => p.type === 'currency')?.value;
      if (sign) return sign;
    } catch {
      // Not an ISO 4217 code ICU knows (vef): the code below.
    }
  }
  return c.code.toUpperCase();
}

/** One rate: units of the currency per bitcoin; null when the bitcoin price or the currency's rate is unknown. */
export interface BtcRate {
  code: string;
  name: string;
  unit: string;
  type: 'fiat' | 'crypto' | 'commodity';
  value: number | null;
}

/** Every supported currency's rate against bitcoin, in catalog order. */
export function btcRates(snapshot: MarketSnapshot, currencies: readonly CurrencyInfo[]): BtcRate[] {
  const btcUsd = snapshot.rates.now('btc');
  return currencies.map((c) => {
    const usdPer = snapshot.rates.now(c.code);
    const value =
      c.code === 'btc'
        ? btcUsd === null
          ? null
          : 1
        : btcUsd === null || usdPer === null || !(usdPer > 0)
          ? null
          : pct(btcUsd / usdPer);
    return { code: c.code, name: c.name, unit: unitOf(c), type: TYPE[c.kind], value };
  });
}

/** `/exchange_rates`. */
export function presentExchangeRates(
  snapshot: MarketSnapshot,
  currencies: readonly CurrencyInfo[],
): { rates: Record<string, Omit<BtcRate, 'code'>> } {
  const rates: Record<string, Omit<BtcRate, 'code'>> = {};
  for (const { code, ...rest } of btcRates(snapshot, currencies)) rates[code] = rest;
  return { rates };
}

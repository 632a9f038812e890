/**
 * What the block-explorer sources share: one GET through the source's back-off gate, exact decimal text for base
 * units, and the supply-source shape of chainz.cryptoid.info and Blockchair (one circulating-supply figure, fetched
 * at most once per `everyMs`). Each explorer only builds its URL and reads its answer (`cryptoid.ts`,
 * `blockchair.ts`); Blockbook (`blockbook.ts`) has no supply and uses only the GET.
 */
import { assetOfTicker } from '../../catalog/assets.ts';
import { preview } from '../http.ts';
import type { HttpResponse } from '../http.ts';
import type { SourceSnapshot, SupplyRecord, TickerSource } from '../types.ts';

/** An explorer entry of the config that reads a coin's circulating supply. */
export interface ExplorerSupplyConfig {
  /** Source id, e.g. `cryptoid:ltc`; goes into every `SupplyRecord.source`. */
  id: string;
  /** The coin's kit ticker (`LTC`); the record's asset is the catalog asset of that ticker. */
  coin: string;
  /** API base, no trailing slash (`https://chainz.cryptoid.info`, `https://api.blockchair.com`). */
  url: string;
  /** Budget of one poll (its one HTTP request), ms. */
  timeoutMs: number;
  /** Fetch at most this often, ms; polls in between return a snapshot with no records. */
  everyMs: number;
}

export const isOk = (res: HttpResponse): boolean => res.status >= 200 && res.status <= 299;

/** {@link preview} of a body with `secret` (an API key) blanked, should the service echo the request. */
export function safePreview(text: string, secret: string | undefined): string {
  return preview(secret ? text.split(secret).join('***') : text);
}

/** `units` base units as exact decimal text with `decimals` places: `6545179573347135n, 8` → `65451795.73347135`. */
export function unitsToDecimal(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const frac = (units % scale).toString().padStart(decimals, '0');
  return decimals === 0 ? (units / scale).toString() : `${units / scale}.${frac}`;
}

/**
 * A source (kind `explorer`) that emits one circulating-supply record per fetch. `read` fetches and returns the
 * supply in whole coins as exact decimal text (or throws a `SourceError`); the record's value is the double nearest
 * to that text (one rounding, not two). Only a usable answer moves the schedule, so a failed fetch is tried again
 * on the next poll (the gate in `read` keeps that from hammering a rate-limiting service).
 */
export function createSupplySource(
  cfg: ExplorerSupplyConfig,
  read: (signal: AbortSignal) => Promise<string>,
  now: () => number,
): TickerSource {
  const asset = assetOfTicker(cfg.coin);
  let dueAt = -Infinity;
  return {
    id: cfg.id,
    kind: 'explorer',
    supplies: ['supply'],
    timeoutMs: cfg.timeoutMs,

    async poll(signal): Promise<SourceSnapshot> {
      const t = now();
      if (t < dueAt) return { source: cfg.id, ts: t, tickers: [] };
      const coins = await read(signal);
      dueAt = t + cfg.everyMs;
      const record: SupplyRecord = {
        asset: asset.id,
        kind: 'circulating',
        value: Number(coins),
        source: cfg.id,
        sourceKind: 'explorer',
        ts: t,
      };
      return { source: cfg.id, ts: t, tickers: [], supply: [record] };
    },
  };
}

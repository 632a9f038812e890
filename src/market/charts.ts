/**
 * Charts and daily candles of a coin, computed once per market snapshot and shared by the price API and the graph:
 * the first caller that asks for a (coin, currency, resolution, span) in a snapshot reads its history and builds the
 * series; every other caller in that snapshot — the same REST URL in another precision, the graph's `chart` field in
 * any request — gets the same series without a store read. Callers end a chart's window at the snapshot's time
 * (`computedAt`, its last point), so that a chart is a function of its snapshot alone. Entries are bounded by their
 * points in all (the least recently used go first) and never outlive their snapshot's use.
 */
import { LRUCache } from 'lru-cache';
import { nextTurn } from '../core/turns.ts';
import { buildChart, dailyCandles } from '../engine/chart.ts';
import type { ChartSeries, RateAt } from '../engine/chart.ts';
import type { MarketSnapshot } from '../engine/snapshot.ts';
import type { AssetMarket, Bar, Resolution } from '../engine/types.ts';

/** Daily candles: `[close time, open, high, low, close]`, oldest first, the open day last. */
export type CandleRows = [number, number, number, number, number][];

/** Bars of the coin at a resolution with `from ≤ ts ≤ to` (the caller's read: SQL, a batched loader). */
export type ReadBars = (res: Resolution, from: number, to: number) => Promise<readonly Bar[]>;

/** What a chart is asked for: its end and span (`spanKey` names the span in the cache: `30`, `0.5`, `max`, a range). */
export interface ChartAsk {
  coin: AssetMarket;
  /** Quote currency code, lowercase (`usd` is always 1). */
  code: string;
  res: Resolution;
  spanKey: string;
  from: number;
  to: number;
}

/**
 * What the kept charts and candles may weigh in all, by {@link heldBytes}. 32 MiB: about 147,000 chart points (68
 * hourly charts of 90 days, or 400 daily charts of a year). An entry lives one snapshot (a minute at the default
 * tick) and saves a store read and a build per repeated ask, so the bound only has to hold the charts asked more
 * than once in a minute. It was 500,000 points, documented as ~75 MB and in fact ~114 MB, the largest cache of the
 * process: in the soak benchmark a minute of varied charts filled 69 MB of it (issue 32, bench/README.md).
 */
export const MAX_CACHED_BYTES = 32 * 1024 * 1024;

/**
 * Heap bytes of one chart point (`[ts, value]` in each of the three series: 228) and of one candle (`[ts, o, h, l,
 * c]`: 99), their arrays and numbers as V8 keeps them: Node 20's heap used after a collection, over 100 charts of
 * 2,000 points built by `buildChart` and 200,000 candle rows.
 */
const POINT_BYTES = 228;
const CANDLE_BYTES = 99;

/** The heap bytes a kept chart or candle list holds, by {@link POINT_BYTES} and {@link CANDLE_BYTES}. */
export function heldBytes(v: ChartSeries | CandleRows): number {
  return Math.max(1, Array.isArray(v) ? v.length * CANDLE_BYTES : v.prices.length * POINT_BYTES);
}

export class ChartCache {
  private readonly done = new LRUCache<string, ChartSeries | CandleRows>({
    maxSize: MAX_CACHED_BYTES,
    sizeCalculation: heldBytes,
  });
  /** Builds under way: concurrent askers of one entry wait for one build. */
  private readonly pending = new Map<string, Promise<ChartSeries | CandleRows>>();
  private readonly versions = new WeakMap<MarketSnapshot, number>();
  private lastVersion = 0;
  private builds = 0;

  /** The chart of `ask` in `snap`: prices, market caps and volumes at the bars' times and the snapshot's point. */
  series(snap: MarketSnapshot, ask: ChartAsk, read: ReadBars): Promise<ChartSeries> {
    const key = `chart|${ask.coin.id}|${ask.code}|${ask.res}|${ask.spanKey}`;
    return this.once(snap, key, async () => {
      const bars = await read(ask.res, ask.from, ask.to);
      // Each build in a turn of the event loop of its own: one read may bring the bars of many charts at once.
      await nextTurn();
      return buildChart(bars, {
        from: ask.from,
        to: ask.to,
        rate: rateOf(snap, ask.code),
        latest: latestPoint(snap, ask.coin),
      });
    }) as Promise<ChartSeries>;
  }

  /**
   * Daily candles of `coin` over `days` back from `now` (or all history: `max`) in `code`: completed days from
   * `read`, the open day from `today` (memory, where every tick lands first), both read only when it is built.
   */
  candles(
    snap: MarketSnapshot,
    ask: { coin: AssetMarket; code: string; days: number | 'max'; now: number; today: () => Bar | null },
    read: ReadBars,
  ): Promise<CandleRows> {
    const key = `ohlc|${ask.coin.id}|${ask.code}|${ask.days}`;
    const from = ask.days === 'max' ? 0 : ask.now - ask.days * 86_400_000;
    return this.once(snap, key, async () => {
      const bars = await read('1d', Math.max(0, from - 86_400_000), ask.now - 86_400_000);
      return dailyCandles(bars, { from, to: ask.now, rate: rateOf(snap, ask.code), today: ask.today() });
    }) as Promise<CandleRows>;
  }

  /** The bytes of the charts and candles held now, by {@link heldBytes} (what {@link MAX_CACHED_BYTES} bounds). */
  cachedBytes(): number {
    return this.done.calculatedSize;
  }

  /** Series and candles built since start (each once per snapshot and key: the rest were shared). */
  built(): number {
    return this.builds;
  }

  private once(
    snap: MarketSnapshot,
    key: string,
    build: () => Promise<ChartSeries | CandleRows>,
  ): Promise<ChartSeries | CandleRows> {
    let v = this.versions.get(snap);
    if (v === undefined) {
      this.versions.set(snap, (v = ++this.lastVersion));
      // Entries are keyed by their snapshot's version: those of older snapshots are never asked for again, and kept
      // they held the whole bound with charts no one would read until evicted one by one.
      this.done.clear();
    }
    const k = `${v}|${key}`;
    const hit = this.done.get(k);
    if (hit) return Promise.resolve(hit);
    let p = this.pending.get(k);
    if (!p) {
      this.builds++;
      p = build()
        .then((value) => {
          this.done.set(k, value);
          return value;
        })
        .finally(() => this.pending.delete(k));
      this.pending.set(k, p);
    }
    return p;
  }
}

/** USD per unit of `code` at a time (historical rates of the snapshot); `usd` is 1. */
function rateOf(snap: MarketSnapshot, code: string): RateAt {
  return code === 'usd' ? () => 1 : (ts) => snap.rates.at(code, ts);
}

/** The snapshot's own point of a coin (its current price, volume and market cap), appended to its charts. */
function latestPoint(snap: MarketSnapshot, coin: AssetMarket) {
  const price = coin.price.priceUsd;
  return price === null
    ? null
    : {
        asset: coin.id,
        ts: snap.computedAt,
        priceUsd: price,
        volumeUsd: coin.price.volumeUsd,
        marketCapUsd: coin.marketCapUsd,
      };
}

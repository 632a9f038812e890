import type { AssetInfo, CategoryInfo, CurrencyInfo } from '../catalog/types.ts';
import type { CategoryMarket } from './categories.ts';
import { computeCategories } from './categories.ts';
import { computeDerived } from './derived.ts';
import type { GlobalMarket } from './global.ts';
import { computeGlobal } from './global.ts';
import type { QuoteResolver } from './price.ts';
import type { PriceRules } from './types.ts';
import { aggregatePrices, DEFAULT_PRICE_RULES } from './price.ts';
import { emptyAggregate } from './priceAsset.ts';
import { Rates } from './rates.ts';
import type { MarketState } from './state.ts';
import type { SupplyMemo } from './supply-memo.ts';
import { fdv, marketCap, verifySupply } from './supply.ts';
import type { TrendingEntry } from './trending.ts';
import { computeTrending } from './trending.ts';
import type { AssetMarket, PriceAggregate, PricePoint, SupplyFigures } from './types.ts';
import type { JudgedTicker, Judgement } from './verdicts.ts';
import { judgedTickers, newJudgement } from './verdicts.ts';

const DAY_MS = 86_400_000;

/** Static inputs and tunable rules of the engine. */
export interface EngineConfig {
  assets: readonly AssetInfo[];
  currencies: readonly CurrencyInfo[];
  categories: readonly CategoryInfo[];
  /** Crypto quote codes (usdt, btc, doge…) → the asset that prices them. */
  quoteAssets: ReadonlyMap<string, { id: string; scale: number }>;
  /** Price eligibility rules; default `DEFAULT_PRICE_RULES` (15-minute staleness, 5×MAD outliers). */
  priceRules?: PriceRules;
  /** Relative tolerance for two supply sources to agree; default 0.01. */
  supplyTolerance?: number;
  /** Supply observations older than this are ignored; default 7 days. */
  supplyMaxAgeMs?: number;
  /** How long an FX rate of a source may be used, by source id; unset: `DEFAULT_FX_MAX_AGE_MS` (5.5 days). */
  fxMaxAgeMs?: ReadonlyMap<string, number>;
  /** Chain figures (`Coin.mining`) older than this are served with `stale: true`; default 2 hours. */
  miningStaleAfterMs?: number;
  /** Chain figures older than this are not served (`Coin.mining` is null); default 1 day. */
  miningMaxAgeMs?: number;
}

/** The engine's output at one tick: immutable, served by every read path until the next tick. */
export interface MarketSnapshot {
  computedAt: number;
  markets: ReadonlyMap<string, AssetMarket>;
  /** Assets with a market cap, by market cap descending (rank order), then the rest by volume. */
  ranked: readonly AssetMarket[];
  categories: readonly CategoryMarket[];
  global: GlobalMarket;
  trending: readonly TrendingEntry[];
  rates: Rates;
  /** Every ticker the aggregation saw, with the engine's verdict on it (used, outlier, stale…), in no set order. */
  tickers: readonly JudgedTicker[];
  /** Asset id → the time of its first observation (the open of its first daily bar); absent without history. */
  listedAt: ReadonlyMap<string, number>;
}

/**
 * Price, supply and market cap of every asset: the cheap part of a tick, also used by backfill (which passes a
 * {@link SupplyMemo}: the same figures, verified only when they can have changed).
 */
export function computeCore(
  state: MarketState,
  cfg: EngineConfig,
  now: number,
  judged?: (tickers: readonly JudgedTicker[]) => void,
  supplyMemo?: SupplyMemo,
): { prices: Map<string, PriceAggregate>; supply: Map<string, SupplyFigures>; points: PricePoint[] } {
  const resolver: QuoteResolver = {
    fiatUsd: (code) => (code === 'usd' ? 1 : state.fxNow(code, now)),
    quoteAsset: (code) => cfg.quoteAssets.get(code) ?? null,
  };
  const tickers = [...state.tickers.values()];
  const judge: Judgement | undefined = judged ? newJudgement(tickers.length) : undefined;
  const prices = aggregatePrices(tickers, now, resolver, cfg.priceRules ?? DEFAULT_PRICE_RULES, judge);
  if (judged && judge) judged(judgedTickers(tickers, judge));
  const supply = new Map<string, SupplyFigures>();
  const points: PricePoint[] = [];
  const opts = { tolerance: cfg.supplyTolerance ?? 0.01, maxAgeMs: cfg.supplyMaxAgeMs ?? 7 * DAY_MS };
  for (const a of cfg.assets) {
    const s = supplyMemo
      ? supplyMemo.figures(state, a.id, now, opts)
      : verifySupply(state.supplyOf(a.id), now, opts);
    supply.set(a.id, s);
    const p = prices.get(a.id);
    if (p?.priceUsd != null) {
      points.push({
        asset: a.id,
        ts: now,
        priceUsd: p.priceUsd,
        volumeUsd: p.volumeUsd,
        marketCapUsd: marketCap(p.priceUsd, s),
      });
    }
  }
  return { prices, supply, points };
}

/** The full snapshot: core figures plus history-derived ones, ranks, categories, global and trending. */
export function computeSnapshot(
  state: MarketState,
  cfg: EngineConfig,
  now: number,
): { snapshot: MarketSnapshot; points: PricePoint[] } {
  let tickers: readonly JudgedTicker[] = [];
  const { prices, supply, points } = computeCore(state, cfg, now, (t) => (tickers = t));
  const markets = new Map<string, AssetMarket>();
  const listedAt = new Map<string, number>();
  for (const a of cfg.assets) {
    const price = prices.get(a.id) ?? emptyAggregate(a.id, 0, 0, 0);
    const s = supply.get(a.id) as SupplyFigures;
    const history = state.history(a.id);
    const first = history.bars1d[0];
    if (first) listedAt.set(a.id, first.openTs);
    const d = computeDerived(history, price.priceUsd, now);
    const mcap = marketCap(price.priceUsd, s);
    markets.set(a.id, {
      id: a.id,
      symbol: a.symbol,
      name: a.name,
      price,
      supply: s,
      marketCapUsd: mcap,
      fdvUsd: fdv(price.priceUsd, s),
      rank: null,
      high24hUsd: d.high24hUsd,
      low24hUsd: d.low24hUsd,
      priceChange24hUsd: d.priceChange24hUsd,
      changes: d.changes,
      marketCapChange24hUsd:
        mcap !== null && d.marketCap24hAgoUsd !== null ? mcap - d.marketCap24hAgoUsd : null,
      marketCapChangePct24h:
        mcap !== null && d.marketCap24hAgoUsd
          ? ((mcap - d.marketCap24hAgoUsd) / d.marketCap24hAgoUsd) * 100
          : null,
      ath: d.ath,
      atl: d.atl,
      sparkline7d: d.sparkline7d,
    });
  }
  const ranked = rank(markets);
  const rates = new Rates(
    new Map(cfg.currencies.map((c) => [c.code, c])),
    state,
    (id) => markets.get(id)?.price.priceUsd ?? null,
    now,
  );
  const trending = computeTrending(markets, (id) => lastDailyVolumes(state, id, now));
  return {
    snapshot: {
      computedAt: now,
      markets,
      ranked,
      categories: computeCategories(cfg.categories, markets, now),
      global: computeGlobal(markets, now),
      trending,
      rates,
      tickers,
      listedAt,
    },
    points,
  };
}

/** Ranks coins with a market cap 1…n (ties by volume, then id); the rest follow unranked by volume. */
function rank(markets: Map<string, AssetMarket>): AssetMarket[] {
  const all = [...markets.values()];
  all.sort(
    (a, b) =>
      (b.marketCapUsd ?? -1) - (a.marketCapUsd ?? -1) ||
      (b.price.volumeUsd ?? -1) - (a.price.volumeUsd ?? -1) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let r = 0;
  for (const m of all) if (m.marketCapUsd !== null) m.rank = ++r;
  return all;
}

/** 24h volumes at the close of the last 7 completed UTC days, oldest first. */
function lastDailyVolumes(state: MarketState, id: string, now: number): number[] {
  const bars = state.histories.get(id)?.bars1d ?? [];
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const out: number[] = [];
  for (let i = bars.length - 1; i >= 0 && out.length < 7; i--) {
    const b = bars[i];
    if (!b || b.ts >= today) continue;
    if (b.ts < today - 7 * DAY_MS) break;
    if (b.volumeUsd !== null) out.unshift(b.volumeUsd);
  }
  return out;
}

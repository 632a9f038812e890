/**
 * The engine's state from the store: the latest tickers and supply records, the FX rates and the history windows.
 * With a history cache (`history-cache.ts`) whose claim still stands, the closed history comes from the cache and only
 * what lies past its horizon from the store (index reads of a few rows); the result is the same state either way.
 */
import { barsOf, lowerBound, RESOLUTION_MS, RESOLUTIONS, RETENTION_MS } from '../engine/history.ts';
import type { MarketState } from '../engine/state.ts';
import type { Bar, Resolution } from '../engine/types.ts';
import type { FxRate } from '../ingest/types.ts';
import type { Db } from '../store/db.ts';
import { claimHistoryHorizon, historyHorizonClaim, loadHistory } from '../store/bars.ts';
import { loadFx, loadFxAfter, loadLatestSupply, loadTickers } from '../store/inputs.ts';
import type { HistoryCache } from './history-cache.ts';
import { newCacheToken, readHistoryCache, writeHistoryCache } from './history-cache.ts';
import type { StoredFx } from './stored-fx.ts';

const DAY_MS = 86_400_000;

/** Where a service keeps its history cache, and the FX rates it holds for it. */
export interface CacheSetup {
  path: string;
  fx: StoredFx;
}

/** The history windows a load reads at `now`: all daily bars, hourly and 5-minute bars within their retention. */
function windowsAt(now: number): [Resolution, number][] {
  return [
    ['1d', 0],
    ['1h', now - RETENTION_MS['1h']],
    ['5m', now - RETENTION_MS['5m']],
  ];
}

/**
 * Loads the state from the store into `state` (empty); `currencies` are the codes whose FX rates past a cache's
 * horizon are read. Returns whether the cache was used.
 */
export async function loadState(
  db: Db,
  state: MarketState,
  now: number,
  opts: { cache: CacheSetup | null; currencies: readonly string[] },
): Promise<boolean> {
  for (const t of await loadTickers(db)) state.applyTicker(t);
  for (const s of await loadLatestSupply(db, now - 30 * DAY_MS)) state.applySupply(s);
  const cached = opts.cache ? await standingCache(db, opts.cache.path, now) : null;
  if (cached) await fxWith(db, state, cached, opts.currencies, opts.cache?.fx);
  else {
    const fx = await loadFx(db);
    opts.cache?.fx.apply(fx);
    for (const f of fx) state.applyFx(f);
  }
  for (const [res, since] of windowsAt(now)) {
    const rows = cached ? await barsWith(db, cached, res, since) : await loadHistory(db, res, since);
    for (const { asset, bars } of rows) {
      const window = barsOf(state.history(asset), res);
      for (const bar of bars) window.push(bar);
    }
  }
  return cached !== null;
}

/** The cache at `path` if the store's claim names it and time has not gone back behind its horizon. */
async function standingCache(db: Db, path: string, now: number): Promise<HistoryCache | null> {
  const claim = await historyHorizonClaim(db);
  if (!claim || now < claim.horizon) return null;
  return readHistoryCache(path, claim.token);
}

/**
 * Applies every FX rate by currency (in code order, as the store's C collation sorts) and day: the cache's (as columns,
 * without an object per rate), then those past its horizon. `stored` takes the same rates.
 */
async function fxWith(
  db: Db,
  state: MarketState,
  cached: HistoryCache,
  currencies: readonly string[],
  stored: StoredFx | undefined,
): Promise<void> {
  const codes = [...new Set([...cached.fx.keys(), ...currencies])].sort();
  const newer = new Map<string, FxRate[]>();
  for (const r of await loadFxAfter(db, codes, cached.horizon - DAY_MS)) {
    const list = newer.get(r.currency);
    if (list) list.push(r);
    else newer.set(r.currency, [r]);
  }
  for (const code of codes) {
    const old = cached.fx.get(code);
    if (old) {
      state.applyFxColumns(code, old.usdPerUnit, old.ts, old.sources);
      stored?.adopt(code, old);
    }
    for (const r of newer.get(code) ?? []) state.applyFx(r);
    stored?.apply(newer.get(code) ?? []);
  }
}

/** The bars of `res` with `ts >= since` by asset (in code order): the cache's, then those past its horizon. */
async function barsWith(
  db: Db,
  cached: HistoryCache,
  res: Resolution,
  since: number,
): Promise<{ asset: string; bars: Bar[] }[]> {
  const old = cached.bars.get(res) ?? new Map<string, Bar[]>();
  const newer = new Map<string, Bar[]>();
  for (const { asset, bars } of await loadHistory(
    db,
    res,
    Math.max(since, cached.horizon - RESOLUTION_MS[res] + 1),
  ))
    newer.set(asset, bars);
  const out: { asset: string; bars: Bar[] }[] = [];
  for (const asset of [...new Set([...old.keys(), ...newer.keys()])].sort()) {
    const kept = old.get(asset) ?? [];
    const bars = kept.slice(lowerBound(kept, since));
    for (const b of newer.get(asset) ?? []) bars.push(b);
    if (bars.length > 0) out.push({ asset, bars });
  }
  return out;
}

/**
 * Writes the history cache of `state` (its windows' bars whose buckets ended by `horizon`, and the FX rates of the
 * days that ended by then), then claims the horizon in the store under the cache's new token. The state must hold
 * exactly what the store holds for that history.
 */
export async function saveCache(
  db: Db,
  state: MarketState,
  cache: CacheSetup,
  horizon: number,
): Promise<void> {
  const bars = new Map<Resolution, Map<string, Bar[]>>();
  const assets = [...state.histories.keys()].sort();
  for (const res of RESOLUTIONS) {
    const byAsset = new Map<string, Bar[]>();
    for (const asset of assets) {
      const all = barsOf(
        state.histories.get(asset) as NonNullable<ReturnType<typeof state.histories.get>>,
        res,
      );
      const n = lowerBound(all, horizon - RESOLUTION_MS[res] + 1);
      if (n > 0) byAsset.set(asset, all.slice(0, n));
    }
    bars.set(res, byAsset);
  }
  const token = newCacheToken();
  await writeHistoryCache(cache.path, { token, horizon, bars, fx: cache.fx.closedBy(horizon) });
  await claimHistoryHorizon(db, { token, horizon });
}

/**
 * A demo first start and a restart at a fixed clock, as the warm-up runs them (`loadMarketData`: the demo dataset
 * generated and aggregated into an empty store; `startMarket`: the first tick and the rollup), with the digests of
 * what each leaves behind (`market-digest.ts`). The differential start-up test compares them with digests recorded
 * from the code before the start-up rework.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASSETS } from '../../src/catalog/assets.ts';
import { CATEGORIES } from '../../src/catalog/categories.ts';
import { CURRENCIES, QUOTE_ASSETS } from '../../src/catalog/currencies.ts';
import type { AssetInfo, CurrencyInfo } from '../../src/catalog/types.ts';
import { createDemoSource } from '../../src/demo/live.ts';
import { DEFAULT_PRICE_RULES } from '../../src/engine/price.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import { ensureDemoData } from '../../src/start/demo.ts';
import { MarketService } from '../../src/market/service.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from './memory-db.ts';
import { snapshotDigest, stateDigest, storeDigests } from './market-digest.ts';

/** What one start-up scenario runs on. */
export interface StartScenario {
  seed: number;
  days: number;
  /** The clock of the whole start (UNIX ms). */
  now: number;
  assets: readonly AssetInfo[];
  currencies: readonly CurrencyInfo[];
}

/** Digests after a start: the store's tables, the engine's state and its snapshot. */
export interface StartDigests {
  store: Record<string, string>;
  state: string;
  snapshot: string;
}

/** A few assets that cover every kind of demo market (quote assets, stablecoins, a wrapped asset, kit coins). */
const FEW = [
  'bitcoin',
  'ethereum',
  'tether',
  'usd-coin',
  'wrapped-bitcoin',
  'litecoin',
  'dogecoin',
  'pepecoin',
  'luckycoin',
  'catcoin',
];

/** The scenarios of the differential test (small datasets: a few days, few assets; one of more than 95 days). */
export const SCENARIOS: Readonly<Record<string, StartScenario>> = {
  'few assets, 3 days': {
    seed: 7,
    days: 3,
    now: Date.UTC(2026, 10, 21, 12, 3, 17),
    assets: ASSETS.filter((a) => FEW.includes(a.id)),
    currencies: CURRENCIES.filter((c) => ['usd', 'eur', 'gbp', 'xau', 'btc', 'sats'].includes(c.code)),
  },
  'few assets, 100 days': {
    seed: 20261121,
    days: 100,
    now: Date.UTC(2026, 10, 21, 23, 58, 0),
    assets: ASSETS.filter((a) => FEW.slice(0, 6).includes(a.id)),
    currencies: CURRENCIES.filter((c) => ['usd', 'eur', 'jpy', 'btc'].includes(c.code)),
  },
  'whole catalog, 2 days': {
    seed: 20261121,
    days: 2,
    now: Date.UTC(2026, 10, 21, 7, 43, 21),
    assets: ASSETS,
    currencies: CURRENCIES,
  },
};

function engineOf(s: StartScenario): EngineConfig {
  return {
    assets: s.assets,
    currencies: s.currencies,
    categories: CATEGORIES,
    quoteAssets: QUOTE_ASSETS,
    priceRules: DEFAULT_PRICE_RULES,
  };
}

function serviceOf(db: Db, s: StartScenario, now: number): MarketService {
  const live = createDemoSource({ seed: s.seed, assets: s.assets, currencies: s.currencies, now: () => now });
  return new MarketService({ db, engine: engineOf(s), sources: [live], now: () => now });
}

async function digests(db: Db, market: MarketService, s: StartScenario): Promise<StartDigests> {
  const snap = market.snapshot;
  if (!snap) throw new Error('no snapshot');
  return {
    store: await storeDigests(db),
    state: stateDigest(market.state),
    snapshot: snapshotDigest(
      snap,
      s.currencies.map((c) => c.code),
    ),
  };
}

/**
 * A first start on an empty in-memory store at `s.now`, then a restart on that store an hour later; returns the
 * digests after each, and whether the restart read the closed history from the history cache. With `cache`, both
 * services keep one (as the embedded product does) and the first writes it after its first tick and rollup.
 */
export async function runStarts(
  s: StartScenario,
  opts: { db?: Db; cache?: boolean; storeLater?: boolean } = {},
): Promise<{ first: StartDigests; restart: StartDigests; fromCache: boolean }> {
  const db = opts.db ?? (await openMemoryDb());
  const dataDir = await mkdtemp(join(tmpdir(), 'cw-first-start-'));
  const cacheFile = join(dataDir, 'history.cache');
  try {
    const market = serviceOf(db, s, s.now);
    if (opts.cache) market.useHistoryCache(cacheFile);
    const cfg = { dataDir, demoSeed: s.seed, demoDays: s.days };
    const r = await ensureDemoData(
      db,
      market,
      cfg,
      { assets: s.assets, currencies: s.currencies },
      s.now,
      undefined,
      {
        storeLater: opts.storeLater ?? false,
      },
    );
    if (!r.generated) throw new Error('the store already held a dataset');
    await market.tick();
    await market.rollup();
    if (opts.storeLater) {
      // As the product runs it: the history is written once the service has started, after start-up.
      market.start();
      await market.whenStored();
      await market.stop();
    }
    const first = await digests(db, market, s);
    if (opts.cache && !(await market.saveHistoryCache())) throw new Error('no history cache written');
    const later = s.now + 3_600_000;
    const again = serviceOf(db, s, later);
    if (opts.cache) again.useHistoryCache(cacheFile);
    const r2 = await ensureDemoData(db, again, cfg, { assets: s.assets, currencies: s.currencies }, later);
    if (r2.generated) throw new Error('the restart generated the dataset again');
    const { fromCache } = await again.load();
    await again.tick();
    await again.rollup();
    const restart = await digests(db, again, s);
    return { first, restart, fromCache };
  } finally {
    if (!opts.db) await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

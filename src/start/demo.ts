/**
 * The demo dataset's part of start-up: generating it into an empty store through the market service, and keeping its
 * mining figures current. Start-up is the only importer of the demo generator (`src/demo/`, eslint.config.js).
 */
import { iterableSource } from '../ingest/replay.ts';
import { demoDataset } from '../demo/dataset.ts';
import { ensureDemoMining } from '../demo/mining.ts';
import type { DemoManifest } from '../demo/dataset.ts';
import type { Db } from '../store/db.ts';
import { clearMarketData } from '../store/market-data.ts';
import { deleteMeta, getMeta, setMeta } from '../store/meta.ts';
import type { AssetInfo, CurrencyInfo } from '../catalog/types.ts';
import type { MarketService } from '../market/service.ts';

const FIVE_MIN = 300_000;
const HOUR_MS = 3_600_000;

export interface DemoProgress {
  phase(label: string, total: number): void;
  update(done: number): void;
  finish(message?: string): void;
}

/** The `meta` key that marks a demo dataset being written: set before its first row, removed with its manifest. */
const PENDING = 'dataset_pending';

/**
 * Makes sure the store holds the demo dataset. On an empty store it generates the dataset (seeded) in memory and
 * aggregates it through the engine as it goes (`generated` is then true and the engine's in-memory state is already
 * built), then writes it all at once: inputs, history, the ingest log, and last the manifest (`meta.dataset`). The
 * store is marked (`meta.dataset_pending`) before the first row of it is written, so a start stopped midway leaves no
 * dataset the next start would take for complete, and the next start clears what it left before generating again.
 * Nothing is written to `<dataDir>`: `coinwallet demo-data` writes the same dataset as a recording when one is wanted.
 * Returns the manifest. Either way stores the demo mining figures of the current hour (`ensureDemoMining`: idempotent,
 * one statement).
 *
 * `storeLater`: the write is left to the market service, which runs it once started (`MarketService.storeLater`), so
 * that the process is ready without waiting for the embedded store to write the whole history; what it serves from
 * the store waits for it meanwhile.
 */
export async function ensureDemoData(
  db: Db,
  market: MarketService,
  cfg: { demoSeed: number; demoDays: number },
  inputs: { assets: readonly AssetInfo[]; currencies: readonly CurrencyInfo[] },
  now: number,
  progress?: DemoProgress,
  opts: { storeLater?: boolean } = {},
): Promise<{ manifest: DemoManifest; generated: boolean }> {
  const existing = await getMeta(db, 'dataset');
  if (existing) {
    const manifest = JSON.parse(existing) as DemoManifest;
    // The mining figures of this hour (idempotent), with the seed the stored dataset was made with.
    await ensureDemoMining(db, { seed: manifest.seed, assets: inputs.assets, now });
    return { manifest, generated: false };
  }
  // What a start stopped midway wrote of its dataset (generated for another end time) goes before anything else.
  if (await getMeta(db, PENDING)) await clearMarketData(db);
  await setMeta(db, PENDING, String(now));
  const end = Math.floor(now / FIVE_MIN) * FIVE_MIN;
  const dataset = demoDataset({
    seed: cfg.demoSeed,
    end,
    days: cfg.demoDays,
    assets: inputs.assets,
    currencies: inputs.currencies,
  });
  // One pass: each snapshot is aggregated as it is generated; the bar then shows the one write of everything.
  progress?.phase('generating demo data and aggregating its history', dataset.total);
  const source = iterableSource('demo:dataset', dataset.snapshots);
  const { writeRest } = await market.backfill(source, (done) => progress?.update(done), {
    flushEvery: Infinity,
    deferLastWrite: opts.storeLater ?? false,
    onWrite: (snapshots) => {
      progress?.finish(`${snapshots} snapshots`);
      progress?.phase('storing demo history', 1);
    },
  });
  await source.close?.();
  const manifest = dataset.manifest();
  progress?.finish();
  const complete = async (): Promise<void> => {
    await writeRest?.();
    await ensureDemoMining(db, { seed: cfg.demoSeed, assets: inputs.assets, now });
    await db.transaction(async (tx) => {
      await setMeta(tx, 'dataset', JSON.stringify(manifest));
      await deleteMeta(tx, PENDING);
    });
  };
  if (writeRest) market.storeLater(complete);
  else await complete();
  return { manifest, generated: true };
}

/**
 * What keeps a long-running demo's mining figures current (`MarketServiceOptions.afterTick`): on the first tick of
 * each hour, the observation of that hour (`ensureDemoMining`, with the seed the stored dataset was made with). One
 * `meta` read and one idempotent insert an hour; nothing on the other ticks, nothing without a demo dataset.
 */
export function demoMiningRefresher(db: Db, assets: readonly AssetInfo[]): (now: number) => Promise<void> {
  let done = -1;
  return async (now) => {
    const hour = Math.floor(now / HOUR_MS);
    if (hour === done) return;
    const stored = await getMeta(db, 'dataset');
    if (!stored) return;
    const { seed } = JSON.parse(stored) as DemoManifest;
    await ensureDemoMining(db, { seed, assets, now });
    done = hour;
  };
}

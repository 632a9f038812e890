import { resolve } from 'node:path';
import { ASSETS } from '../catalog/assets.ts';
import { CURRENCIES } from '../catalog/currencies.ts';
import type { AppConfig } from '../config.ts';
import { writeDemoDataset } from '../demo/dataset.ts';
import { ensureDemoData } from '../market/demo.ts';
import { MarketService } from '../market/service.ts';
import { engineConfig } from '../start/wiring.ts';
import { openDb } from '../store/open.ts';
import type { Args } from './args.ts';
import type { CommandSpec } from './spec.ts';
import { intFlag, UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { createLogger } from '../core/log.ts';
import { phasedProgress } from './phased.ts';
import { createProgress } from './progress.ts';

const FIVE_MIN = 300_000;

export const DEMO_DATA: CommandSpec = {
  name: 'demo-data',
  synopsis: '[--seed N] [--days N] [--end MS] [--out DIR] [--load]',
  summary:
    'generate the seeded demo dataset (recording.jsonl.gz + manifest.json) into --out, or with --load into an\n' +
    'empty store, as serve does on first start (docs/demo-data.md).',
  options: {
    seed: { type: 'string', value: 'N', help: 'generator seed (default DEMO_SEED, 20261121)' },
    days: { type: 'string', value: 'N', help: 'days of history, 3 to 3650 (default DEMO_DAYS, 420)' },
    end: { type: 'string', value: 'MS', help: 'last instant, Unix milliseconds (default now)' },
    out: { type: 'string', value: 'DIR', help: 'where to write the dataset (default DATA_DIR/demo)' },
    load: { type: 'boolean', help: 'load it into the store (only when the store holds no dataset)' },
  },
};

/**
 * `coinwallet demo-data`: writes the seeded demo dataset (`recording.jsonl.gz` + `manifest.json`) to `--out`
 * (default `<DATA_DIR>/demo`); with `--load`, loads it into an empty store the way `serve` does on first start.
 */
export const demoData: Command = { spec: DEMO_DATA, run: (args, config) => runDemoData(config(), args) };

export const demoDataCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(demoData, argv, () => cfg);

async function runDemoData(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  if (positional.length > 0) throw new UsageError(`demo-data takes no arguments (got ${positional[0]})`);
  const seed = intFlag(flags.seed, 'seed', cfg.demoSeed, 0, 2 ** 31 - 1);
  const days = intFlag(flags.days, 'days', cfg.demoDays, 3, 3650);
  const endArg = intFlag(flags.end, 'end', Date.now(), 1_230_768_000_000, 4_102_444_800_000);
  const end = Math.floor(endArg / FIVE_MIN) * FIVE_MIN;
  if (flags.load) {
    const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
    try {
      const market = new MarketService({ db, engine: engineConfig(cfg), log: createLogger(cfg.logLevel) });
      const r = await ensureDemoData(
        db,
        market,
        { ...cfg, demoSeed: seed, demoDays: days },
        { assets: ASSETS, currencies: CURRENCIES },
        end,
        phasedProgress(),
      );
      process.stderr.write(
        r.generated ? 'demo dataset loaded\n' : 'the store already holds a dataset; nothing loaded\n',
      );
    } finally {
      await db.close();
    }
    return 0;
  }
  const out = resolve(typeof flags.out === 'string' ? flags.out : `${cfg.dataDir}/demo`);
  let bar: ReturnType<typeof createProgress> | null = null;
  const manifest = await writeDemoDataset(out, {
    seed,
    end,
    days,
    assets: ASSETS,
    currencies: CURRENCIES,
    onProgress: (done, total) => {
      bar ??= createProgress('generating demo data', total);
      bar.update(done);
    },
  });
  (bar as ReturnType<typeof createProgress> | null)?.done();
  process.stdout.write(`${JSON.stringify({ out, ...manifest }, null, 2)}\n`);
  return 0;
}

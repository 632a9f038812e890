import { resolve } from 'node:path';
import { ASSETS } from '../catalog/assets.ts';
import { CURRENCIES } from '../catalog/currencies.ts';
import type { AppConfig } from '../config.ts';
import { writeDemoDataset } from '../demo/dataset.ts';
import { ensureDemoData } from '../start/demo.ts';
import { engineConfig } from '../start/wiring.ts';
import type { Args } from './args.ts';
import { intFlag, UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { createLogger } from '../core/log.ts';
import { withServices } from './local-store.ts';
import { phasedProgress } from './phased.ts';
import { createProgress } from './progress.ts';
import { DEMO_DATA } from './specs.ts';

const FIVE_MIN = 300_000;

/**
 * `coinwallet demo-data`: writes the seeded demo dataset (`recording.jsonl.gz` + `manifest.json`) to `--out`
 * (default `<DATA_DIR>/demo`); with `--load`, loads it into an empty store the way `serve` does on first start.
 */
export const demoData: Command = {
  spec: DEMO_DATA,
  run: async (args, config) => runDemoData(await config(), args),
};

export const demoDataCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(demoData, argv, async () => cfg);

async function runDemoData(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  if (positional.length > 0) throw new UsageError(`demo-data takes no arguments (got ${positional[0]})`);
  const seed = intFlag(flags.seed, 'seed', cfg.demoSeed, 0, 2 ** 31 - 1);
  const days = intFlag(flags.days, 'days', cfg.demoDays, 3, 3650);
  const endArg = intFlag(flags.end, 'end', Date.now(), 1_230_768_000_000, 4_102_444_800_000);
  const end = Math.floor(endArg / FIVE_MIN) * FIVE_MIN;
  if (flags.load) {
    const market = { engine: engineConfig(cfg), log: createLogger(cfg.logLevel) };
    await withServices(cfg, 'demo-data', { market }, async (services, db) => {
      const r = await ensureDemoData(
        db,
        services.market,
        { demoSeed: seed, demoDays: days },
        { assets: ASSETS, currencies: CURRENCIES },
        end,
        phasedProgress(),
      );
      process.stderr.write(
        r.generated ? 'demo dataset loaded\n' : 'the store already holds a dataset; nothing loaded\n',
      );
    });
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

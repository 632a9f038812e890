import type { AppConfig } from '../config.ts';
import { countLines } from '../ingest/count.ts';
import { createReplaySource } from '../ingest/replay.ts';
import { loadSourcesFile } from '../ingest/sources.ts';
import { engineConfig } from '../start/wiring.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { createLogger } from '../core/log.ts';
import { servicesOver, withServices } from './local-store.ts';
import { createProgress } from './progress.ts';
import { INGEST } from './specs.ts';

/**
 * `coinwallet ingest`: writes into the configured store (DATA_DIR or DATABASE_URL). The embedded store is
 * single-process: stop a server using the same DATA_DIR first, or point both at PostgreSQL.
 */
export const ingest: Command = { spec: INGEST, run: async (args, config) => runIngest(await config(), args) };

export const ingestCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(ingest, argv, async () => cfg);

async function runIngest(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  const replays = [...(typeof flags.replay === 'string' ? [flags.replay] : []), ...positional];
  if (replays.length === 0 && typeof flags.sources !== 'string') {
    throw new UsageError('ingest needs --replay FILE (one or more) or --sources FILE');
  }
  const log = createLogger(cfg.logLevel);
  const replaying = { engine: engineConfig(cfg), log, sourceTimeoutMs: cfg.sourceTimeoutMs };
  return withServices(cfg, 'ingest', { market: replaying }, async ({ market }, db) => {
    await market.load();
    for (const path of replays) {
      const total = await countLines(path);
      const bar = createProgress(`replaying ${path}`, total);
      const src = createReplaySource({ path });
      const r = await market.backfill(src, (n) => bar.update(n));
      await src.close?.();
      bar.done(`${r.snapshots - r.skipped} new, ${r.skipped} already ingested or invalid`);
    }
    if (typeof flags.sources === 'string') {
      // A market of its own for the tick: the sources' FX windows are part of its engine's rules, not the replays'.
      const { sources, fxMaxAgeMs } = loadSourcesFile(flags.sources);
      const ticking = {
        engine: engineConfig(cfg, fxMaxAgeMs),
        log,
        sources,
        sourceTimeoutMs: cfg.sourceTimeoutMs,
      };
      const m = servicesOver(cfg, db, { market: ticking }).market;
      await m.load();
      const snap = await m.tick();
      await m.stop();
      process.stderr.write(
        `ingested one tick from ${sources.length} sources at ${new Date(snap.computedAt).toISOString()}\n`,
      );
    }
    if (market.rejects.total > 0)
      process.stderr.write(`rejected records: ${market.rejects.total} (see logs)\n`);
    return 0;
  });
}

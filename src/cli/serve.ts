import { constants } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../config.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { phasedProgress } from './phased.ts';
import { SERVE } from './specs.ts';

/**
 * `coinwallet serve [--only subgraph:<name>|router]`: the whole product (default), or one part of the graph in its
 * own process (scale-out). Runs until SIGINT/SIGTERM.
 */
export const serve: Command = { spec: SERVE, run: async (args, config) => runServe(await config(), args) };

export const serveCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(serve, argv, async () => cfg);

async function runServe(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  if (positional.length > 0) throw new UsageError(`serve takes no arguments (got ${positional[0]})`);
  // One listener per signal for the whole run, never removed (a listener removed and another added churns Node's
  // signal handle; a first start once outlived a SIGTERM that way, its listener still waiting). Until everything is
  // ready, and again once a shutdown is under way, SIGINT/SIGTERM end the process at once, as Node does without a
  // listener: a library's own listener (Hive Gateway's runtime disposes itself on SIGTERM) must not make the process
  // outlive the signal; once ready, the first one starts the graceful shutdown.
  const exitNow = (signal: NodeJS.Signals) => process.exit(128 + (constants.signals[signal] ?? 15));
  let onSignal: (signal: NodeJS.Signals) => void = exitNow;
  const signalled = (signal: NodeJS.Signals) => onSignal(signal);
  process.on('SIGINT', signalled);
  process.on('SIGTERM', signalled);
  const onlyFlag = flags['only'];
  let close: () => Promise<void>;
  let ready: Promise<void>;
  if (typeof onlyFlag === 'string') {
    const { parsePart, partName, startGraphPart } = await import('../start/part.ts');
    const part = parsePart(onlyFlag);
    if (!part)
      throw new UsageError(
        '--only must be subgraph:markets, subgraph:identity, subgraph:bridge, subgraph:accounts or router',
      );
    const running = await startGraphPart(cfg, part, { progress: phasedProgress() });
    if (part.kind === 'subgraph' && part.name === 'accounts')
      process.stderr.write(operatorTokenLine(cfg, running.adminTokenFile));
    process.stderr.write(`coinwallet: ${partName(part)} listening on ${running.url}/graphql\n`);
    if (running.metricsUrl) process.stderr.write(`coinwallet: metrics at ${running.metricsUrl}\n`);
    close = () => running.close();
    ready = running.ready.then(() => {
      process.stderr.write(`coinwallet: ${partName(part)} ready\n`);
    });
  } else {
    // The embedded store's WebAssembly compiles, and its history cache is read, on other threads while the product's
    // modules load and the store opens.
    if (!cfg.databaseUrl) {
      (await import('../store/pglite-wasm.ts')).compilePgliteWasm();
      const { HISTORY_CACHE_FILE, readHistoryCacheAhead } = await import('../market/history-cache.ts');
      void readHistoryCacheAhead(join(cfg.dataDir, HISTORY_CACHE_FILE));
    }
    const { startProduct } = await import('../start/product.ts');
    const product = await startProduct(cfg, { progress: phasedProgress() });
    process.stderr.write(operatorTokenLine(cfg, product.adminTokenFile));
    process.stderr.write(
      `coinwallet: listening on ${product.url} (health: ${product.url}/healthz, graph: ${product.url}/graphql)\n`,
    );
    if (product.metricsUrl) process.stderr.write(`coinwallet: metrics at ${product.metricsUrl}\n`);
    close = () => product.close();
    ready = product.ready.then(() => {
      process.stderr.write(
        `coinwallet: ready — ${product.market.snapshot?.markets.size ?? 0} assets aggregated\n`,
      );
    });
  }
  // A warm-up that fails ends the process (exit 1), its store closed and its lock released first.
  await ready.catch(async (err: unknown) => {
    await close();
    throw err;
  });
  await new Promise<void>((resolve) => {
    onSignal = () => {
      onSignal = exitNow;
      resolve();
    };
  });
  await close();
  return 0;
}

/** The start-up line saying where the operator token is (never the token itself); empty when `ADMIN_TOKEN` is set. */
export function operatorTokenLine(cfg: Pick<AppConfig, 'adminToken'>, file: string | null): string {
  if (cfg.adminToken) return '';
  return file
    ? `coinwallet: ADMIN_TOKEN is unset: the operator token is in ${file}\n`
    : 'coinwallet: ADMIN_TOKEN is unset: the operator endpoints are off (scale-out mode generates no token)\n';
}

import type { AppConfig } from '../config.ts';
import { startProduct } from '../product.ts';
import { parseArgs } from './args.ts';
import { createLogger } from './log.ts';
import { phasedProgress } from './phased.ts';

/** `coinwallet serve`: runs until SIGINT/SIGTERM. */
export async function serveCommand(cfg: AppConfig, argv: readonly string[]): Promise<number> {
  parseArgs(argv, {});
  const log = createLogger(cfg.logLevel);
  const product = await startProduct(cfg, { log, progress: phasedProgress() });
  process.stderr.write(`coinwallet: listening on ${product.url} (health: ${product.url}/healthz)\n`);
  await product.ready;
  process.stderr.write(
    `coinwallet: ready — ${product.market.snapshot?.markets.size ?? 0} assets aggregated\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await product.close();
  return 0;
}

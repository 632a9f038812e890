import type { AppConfig } from '../config.ts';
import { parsePart, partName, startGraphPart } from '../graph-service.ts';
import { startProduct } from '../product.ts';
import { parseArgs, UsageError } from './args.ts';
import { createLogger } from './log.ts';
import { phasedProgress } from './phased.ts';

/**
 * `coinwallet serve [--only subgraph:<name>|router]`: the whole product (default), or one part of the graph in its
 * own process (scale-out). Runs until SIGINT/SIGTERM.
 */
export async function serveCommand(cfg: AppConfig, argv: readonly string[]): Promise<number> {
  const { flags } = parseArgs(argv, { only: 'string' });
  const log = createLogger(cfg.logLevel);
  const onlyFlag = flags['only'];
  let close: () => Promise<void>;
  if (typeof onlyFlag === 'string') {
    const part = parsePart(onlyFlag);
    if (!part)
      throw new UsageError(
        '--only must be subgraph:markets, subgraph:identity, subgraph:bridge, subgraph:accounts or router',
      );
    const running = await startGraphPart(cfg, part, { log, progress: phasedProgress() });
    process.stderr.write(`coinwallet: ${partName(part)} listening on ${running.url}/graphql\n`);
    await running.ready;
    process.stderr.write(`coinwallet: ${partName(part)} ready\n`);
    close = () => running.close();
  } else {
    const product = await startProduct(cfg, { log, progress: phasedProgress() });
    process.stderr.write(
      `coinwallet: listening on ${product.url} (health: ${product.url}/healthz, graph: ${product.url}/graphql)\n`,
    );
    await product.ready;
    process.stderr.write(
      `coinwallet: ready — ${product.market.snapshot?.markets.size ?? 0} assets aggregated\n`,
    );
    close = () => product.close();
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await close();
  return 0;
}

import { resolveAttestationKey } from '../bridge/attestation.ts';
import { DEFAULT_RECORDED_DIR, RecordedChainData } from '../bridge/chain-data.ts';
import { loadDeployment } from '../bridge/deployment.ts';
import { NETWORKS } from '../bridge/model.ts';
import type { Network } from '../bridge/model.ts';
import type { AppConfig } from '../config.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { withServices } from './local-store.ts';
import { BRIDGE } from './specs.ts';

/**
 * `coinwallet bridge snapshot [--network testnet|mainnet] [--recorded DIR]`: reads reserve balances and wrapped
 * supplies through a chain-data adapter (the recorded data of `DIR/<network>.json`, default `config/bridge/recorded`),
 * signs the report with the attestation key (`BRIDGE_ATTESTATION_KEY`, or the embedded-mode secret under DATA_DIR)
 * and stores it for `/api/proof-of-reserves`. Writes into the configured store: the embedded store is
 * single-process, so stop a server using the same DATA_DIR first, or point both at PostgreSQL.
 */
export const bridge: Command = { spec: BRIDGE, run: async (args, config) => runBridge(await config(), args) };

export const bridgeCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(bridge, argv, async () => cfg);

async function runBridge(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  if (positional[0] !== 'snapshot' || positional.length > 1) {
    throw new UsageError('usage: coinwallet bridge snapshot [--network testnet|mainnet] [--recorded DIR]');
  }
  const network = (flags.network ?? cfg.bridgeNetwork) as Network;
  if (!NETWORKS.includes(network)) throw new UsageError('--network must be testnet or mainnet');
  const deployment = loadDeployment(network, cfg.bridgeConfigDir);
  const key = resolveAttestationKey(deployment, {
    seedHex: cfg.bridgeAttestationKey,
    dataDir: cfg.dataDir,
    scaleOut: cfg.databaseUrl !== undefined,
  });
  const chain = RecordedChainData.load(
    network,
    typeof flags.recorded === 'string' ? flags.recorded : DEFAULT_RECORDED_DIR,
  );
  return withServices(cfg, 'bridge', { bridge: { deployment } }, async ({ bridge }) => {
    const snap = await bridge.snapshot(chain, key);
    const summary = {
      id: snap.id,
      network,
      source: snap.report.source,
      generatedAt: snap.report.generatedAt,
      publicKey: snap.publicKey,
      assets: snap.report.assets.map((a) => ({
        ticker: a.ticker,
        reserves: a.reserves.total,
        liabilities: a.liabilities.supply,
        ratio: a.ratio,
      })),
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    return 0;
  });
}

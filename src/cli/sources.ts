import { ASSETS } from '../catalog/assets.ts';
import { loadDeployment } from '../bridge/deployment.ts';
import type { Deployment } from '../bridge/model.ts';
import type { AppConfig } from '../config.ts';
import { pollAll, prepareSnapshot } from '../ingest/pipeline.ts';
import { loadSourcesFile } from '../ingest/sources.ts';
import type { BridgeSourcesConfig, ConfiguredSources } from '../ingest/sources.ts';
import type { BalanceReader, TokenSupplyReader } from '../ingest/types.ts';
import { LiveChainData } from '../bridge/live-chain-data.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { SOURCES } from './specs.ts';

/** One line of the table. */
export interface CheckRow {
  source: string;
  kind: string;
  supplies: string;
  ms: number;
  records: number;
  rejects: string;
  error: string;
}

const KNOWN = new Set(ASSETS.map((a) => a.id));

/**
 * Polls every source of `configured` once (each within its own timeout) and reads the bridge's chain data through
 * the sources its `bridge` section names, one row each. A row has an error when the poll failed, a part of it
 * failed, or the bridge read failed.
 */
export async function checkSources(
  configured: ConfiguredSources,
  deployment: Pick<Deployment, 'assets' | 'network'> | null,
  defaultTimeoutMs: number,
): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const outcomes = await pollAll(configured.sources, defaultTimeoutMs);
  for (const [i, o] of outcomes.entries()) {
    const src = configured.sources[i]!;
    const rejects = new Map<string, number>();
    const p = o.snapshot
      ? prepareSnapshot(
          o.snapshot,
          KNOWN,
          (reason) => rejects.set(reason, (rejects.get(reason) ?? 0) + 1),
          Date.now(),
        )
      : null;
    const parts = (o.snapshot?.errors ?? []).map((e) => `${e.source}: ${e.message}`);
    rows.push({
      source: src.id,
      kind: src.kind,
      supplies: (src.supplies ?? ['tickers']).join(','),
      ms: Math.round(o.ms),
      records: p ? p.tickers.length + p.supply.length + p.fx.length + p.mining.length : 0,
      rejects: [...rejects].map(([r, n]) => `${r} ×${n}`).join('; '),
      error: o.error ?? parts.join('; '),
    });
  }
  if (deployment && configured.bridge) rows.push(...(await bridgeRows(deployment, configured.bridge)));
  return rows;
}

/**
 * The bridge's reads exactly as the server makes them (through `LiveChainData`): a deployment chain without a
 * source, or a mint whose decimals differ from the deployment's, is a failed row as it would fail every report.
 */
async function bridgeRows(
  deployment: Pick<Deployment, 'assets' | 'network'>,
  bridge: BridgeSourcesConfig,
): Promise<CheckRow[]> {
  let live: LiveChainData;
  try {
    live = new LiveChainData(deployment, bridge);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    return [
      {
        source: 'bridge',
        kind: 'config',
        supplies: 'balances,token-supply',
        ms: 0,
        records: 0,
        rejects: '',
        error,
      },
    ];
  }
  const rows: CheckRow[] = [];
  for (const a of deployment.assets) {
    const reader = bridge.balances[a.nativeChain] as BalanceReader;
    const supply = bridge.tokenSupply[a.wrapped.chain] as TokenSupplyReader;
    rows.push(
      await bridgeRow(`bridge:${a.nativeChain}`, reader.id, 'balances', () =>
        live.reserveBalances(a.reserveAddresses).then((b) => b.length),
      ),
    );
    rows.push(
      await bridgeRow(`bridge:${a.wrapped.chain}`, supply.id, 'token-supply', () =>
        live.wrappedSupply(a.wrapped.mint).then(() => 1),
      ),
    );
  }
  return rows;
}

async function bridgeRow(
  name: string,
  via: string,
  what: string,
  read: () => Promise<number>,
): Promise<CheckRow> {
  const t0 = performance.now();
  let records = 0;
  let error = '';
  try {
    records = await read();
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  return {
    source: name,
    kind: `via ${via}`,
    supplies: what,
    ms: Math.round(performance.now() - t0),
    records,
    rejects: '',
    error,
  };
}

/** The rows as an aligned text table. */
export function formatTable(rows: readonly CheckRow[]): string {
  const head = ['source', 'kind', 'supplies', 'latency', 'records', 'rejects', 'error'];
  const cells = rows.map((r) => [
    r.source,
    r.kind,
    r.supplies,
    `${r.ms} ms`,
    String(r.records),
    r.rejects || '-',
    r.error || '-',
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: readonly string[]): string =>
    c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(width[i] as number))).join('  ');
  return [line(head), line(width.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/**
 * `coinwallet sources check [--file F]`: polls each source of the sources file (`--file`, else `SOURCES_FILE`)
 * once, reads the bridge's chain data through its configured sources, prints the table; exit 1 when any failed.
 */
export const sources: Command = {
  spec: SOURCES,
  run: async (args, config) => runSources(await config(), args),
};

export const sourcesCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(sources, argv, async () => cfg);

async function runSources(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  if (positional[0] !== 'check' || positional.length > 1)
    throw new UsageError('usage: coinwallet sources check [--file FILE]');
  const file = typeof flags.file === 'string' ? flags.file : cfg.sourcesFile;
  if (!file) throw new UsageError('sources check needs --file FILE or SOURCES_FILE');
  const configured = loadSourcesFile(file);
  try {
    const deployment = configured.bridge ? loadDeployment(cfg.bridgeNetwork, cfg.bridgeConfigDir) : null;
    const rows = await checkSources(configured, deployment, cfg.sourceTimeoutMs);
    process.stdout.write(formatTable(rows) + '\n');
    const failed = rows.filter((r) => r.error !== '');
    process.stdout.write(
      failed.length === 0
        ? `\nall ${rows.length} sources answered\n`
        : `\n${failed.length} of ${rows.length} failed\n`,
    );
    return failed.length === 0 ? 0 : 1;
  } finally {
    for (const s of configured.sources) await s.close?.();
  }
}

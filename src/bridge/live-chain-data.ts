/**
 * Live chain data for the proof of reserves: each reserve address's balance from the source configured for its
 * coin's chain (a node or a Blockbook explorer), each wrapped token's supply from the Solana endpoint configured for
 * its chain. Reports built from it say `source: "live"`. A source that cannot answer fails the read: the report is
 * not signed, and the last one ages into `stale`, never a guess.
 */
import type { ChainDataAdapter, ReserveBalance, WrappedSupply } from './chain-data.ts';
import { DeploymentError } from './model.ts';
import type { BridgeAsset, Deployment } from './model.ts';

/** One address's confirmed balance in base units at a block (height and its time, UNIX ms). */
export interface LiveBalance {
  address: string;
  units: bigint;
  height: number;
  blockTime: number;
}

/** What reads balances of a UTXO chain (structurally: a node or a Blockbook source). */
export interface LiveBalanceReader {
  readonly id: string;
  balances(addresses: readonly string[]): Promise<LiveBalance[]>;
}

/** What reads an SPL token's supply (structurally: a Solana source). */
export interface LiveSupplyReader {
  readonly id: string;
  tokenSupply(mint: string): Promise<{ units: bigint; decimals: number; slot: number; blockTime: number }>;
}

export interface LiveReaders {
  /** UTXO chain id → its balance reader. */
  balances: Record<string, LiveBalanceReader>;
  /** Solana chain id → its supply reader. */
  tokenSupply: Record<string, LiveSupplyReader>;
}

export class LiveChainData implements ChainDataAdapter {
  readonly source = 'live' as const;

  /** Throws a `DeploymentError` naming every chain of the deployment that has no reader. */
  constructor(
    private readonly deployment: Pick<Deployment, 'assets' | 'network'>,
    private readonly readers: LiveReaders,
  ) {
    const missing = deployment.assets.flatMap((a) => [
      ...(readers.balances[a.nativeChain]
        ? []
        : [`bridge.balances["${a.nativeChain}"] (${a.ticker} reserves)`]),
      ...(readers.tokenSupply[a.wrapped.chain]
        ? []
        : [`bridge.tokenSupply["${a.wrapped.chain}"] (${a.wrapped.ticker} supply)`]),
    ]);
    if (missing.length > 0)
      throw new DeploymentError(
        `the sources file's bridge section names no source for ${[...new Set(missing)].join(', ')}`,
      );
  }

  async reserveBalances(addresses: readonly string[], asOf?: number): Promise<ReserveBalance[]> {
    if (asOf !== undefined) throw new Error('live chain data reads the newest block only');
    const asset = this.assetOf(
      (a) => addresses.every((x) => a.reserveAddresses.includes(x)),
      'these addresses',
    );
    const reader = this.readers.balances[asset.nativeChain] as LiveBalanceReader;
    const got = await reader.balances(addresses);
    if (got.length !== addresses.length || got.some((b, i) => b.address !== addresses[i]))
      throw new Error(`${reader.id} answered for other addresses than asked`);
    return got.map((b) => ({
      address: b.address,
      balance: b.units.toString(),
      height: b.height,
      time: new Date(b.blockTime).toISOString(),
    }));
  }

  async wrappedSupply(mint: string): Promise<WrappedSupply> {
    const asset = this.assetOf((a) => a.wrapped.mint === mint, `mint ${mint}`);
    const reader = this.readers.tokenSupply[asset.wrapped.chain] as LiveSupplyReader;
    const s = await reader.tokenSupply(mint);
    if (s.decimals !== asset.wrapped.decimals)
      throw new Error(
        `${reader.id}: mint ${mint} has ${s.decimals} decimals, the deployment says ${asset.wrapped.decimals}`,
      );
    return { supply: s.units.toString(), slot: s.slot, time: new Date(s.blockTime).toISOString() };
  }

  private assetOf(match: (a: BridgeAsset) => boolean, what: string): BridgeAsset {
    const a = this.deployment.assets.find(match);
    if (!a) throw new Error(`no asset of the ${this.deployment.network} deployment holds ${what}`);
    return a;
  }
}

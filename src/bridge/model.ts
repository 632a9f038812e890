/**
 * What a bridge deployment is (`deployment.ts` reads one from its file, `validate.ts` checks it): chains, assets,
 * lanes, the attestation key. See docs/bridge.md.
 */
export type Network = 'testnet' | 'mainnet';
export const NETWORKS: readonly Network[] = ['testnet', 'mainnet'];

/** A Bitcoin-derived chain: addresses are Base58Check with these version bytes. */
export interface UtxoChain {
  /** Slug that assets and lanes refer to, e.g. `luckycoin-testnet`. */
  id: string;
  kind: 'utxo';
  name: string;
  /** The coin's ticker on this chain, e.g. `LKY`. */
  ticker: string;
  /** P2PKH version byte. */
  p2pkh: number;
  /** P2SH version bytes, current first. */
  p2sh: number[];
}

export interface SolanaChain {
  id: string;
  kind: 'solana';
  name: string;
  cluster: 'devnet' | 'testnet' | 'mainnet-beta';
  /** The bridge program: withdrawals burn the wrapped token through it. */
  bridgeProgram: string;
}

export type Chain = UtxoChain | SolanaChain;

/** A coin of a UTXO chain and its wrapped SPL token. */
export interface BridgeAsset {
  ticker: string;
  name: string;
  decimals: number;
  /** Id of the UTXO chain the coin lives on. */
  nativeChain: string;
  wrapped: { chain: string; ticker: string; name: string; mint: string; decimals: number };
  /** Addresses holding the coins that back the wrapped supply (the deposit addresses among them). */
  reserveAddresses: string[];
}

/** One direction of one asset: `wrap` (coin → wrapped token) or `unwrap` (wrapped token → coin). */
export interface Lane {
  id: string;
  asset: string;
  direction: 'wrap' | 'unwrap';
  from: string;
  to: string;
  status: 'active' | 'paused';
  /** Why the lane is paused; null when active. */
  pausedReason: string | null;
  /** Confirmations (blocks, or slots on Solana) a transfer needs on `from` before it is processed. */
  confirmations: number;
  /** Amounts in base units of the asset, as decimal strings. */
  minAmount: string;
  maxAmount: string;
  /** Fee = `fixed` (base units) + `percent` % of the amount. */
  fees: { fixed: string; percent: number };
  /** Where wrap deposits are sent (a reserve address on `from`); null for unwrap lanes. */
  depositAddress: string | null;
}

export interface Deployment {
  network: Network;
  version: string;
  /** Free text shown to clients, e.g. that addresses are examples. */
  label: string;
  chains: Chain[];
  assets: BridgeAsset[];
  lanes: Lane[];
  /**
   * The ed25519 key that signs proof-of-reserves reports. `publicKey` null means the file says `"from-secret"`:
   * the operator's local secret decides (testnet only); otherwise the 32-byte key in hex, pinned.
   */
  attestation: { publicKey: string | null };
  /** The file it was read from, for messages. */
  source: string;
}

/** A deployment file that cannot be used: the message names the file and the field. */
export class DeploymentError extends Error {}

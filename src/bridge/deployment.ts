/**
 * A bridge deployment: one configuration file per network (`config/bridge/testnet.json`, `mainnet.json`), read and
 * validated at start. It is the single source of what the bridge read API publishes: chains, assets, lanes with
 * their limits and fees, deposit and reserve addresses, and the key that attests reserves. See docs/bridge.md.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDeployment } from './validate.ts';

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

/** `config/bridge` of this project, whatever the working directory. */
export const DEFAULT_DEPLOYMENT_DIR = fileURLToPath(new URL('../../config/bridge', import.meta.url));

/** Reads and validates `<dir>/<network>.json`; its `network` must be `network`. */
export function loadDeployment(network: Network, dir = DEFAULT_DEPLOYMENT_DIR): Deployment {
  if (!NETWORKS.includes(network)) {
    throw new DeploymentError(`bridge network must be testnet or mainnet, not "${String(network)}"`);
  }
  const d = loadDeploymentFile(join(dir, `${network}.json`));
  if (d.network !== network) {
    throw new DeploymentError(
      `${d.source}: network must be "${network}" (the file's name), not "${d.network}"`,
    );
  }
  return d;
}

/** Reads and validates one deployment file; throws `DeploymentError` naming the file and the field. */
export function loadDeploymentFile(path: string): Deployment {
  const shown = displayPath(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new DeploymentError(`${shown}: cannot read the deployment file (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new DeploymentError(`${shown}: not valid JSON (${(err as Error).message})`);
  }
  return parseDeployment(json, shown);
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

export function chainById(d: Deployment, id: string): Chain {
  const c = d.chains.find((x) => x.id === id);
  if (!c) throw new DeploymentError(`${d.source}: no chain "${id}"`);
  return c;
}

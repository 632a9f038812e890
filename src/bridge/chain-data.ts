/**
 * Where reserve balances and wrapped supplies come from. A snapshot asks an adapter; the adapter's `source` is
 * written into the signed report, so recorded (demo, test) data never passes for live chain data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectPath } from '../core/project-root.ts';
import { DeploymentError } from './model.ts';
import type { Network } from './model.ts';
import { Reader } from './field-reader.ts';

/** One reserve address's confirmed balance (base units) at a block. `time` is the block's ISO 8601 UTC time. */
export interface ReserveBalance {
  address: string;
  balance: string;
  height: number;
  time: string;
}

/** A wrapped token's total supply (base units) at a Solana slot. */
export interface WrappedSupply {
  supply: string;
  slot: number;
  time: string;
}

export interface ChainDataAdapter {
  /** `recorded` or `live`: copied into the report. */
  readonly source: 'recorded' | 'live';
  /** Balances of `addresses` (in order), at block height `asOf` when given, else at the adapter's latest block. */
  reserveBalances(addresses: readonly string[], asOf?: number): Promise<ReserveBalance[]>;
  /** Supply of the SPL token `mint`. */
  wrappedSupply(mint: string): Promise<WrappedSupply>;
}

export const DEFAULT_RECORDED_DIR = projectPath('config', 'bridge', 'recorded');

interface UtxoRecord {
  height: number;
  time: string;
  balances: Record<string, string>;
}
interface SolanaRecord {
  slot: number;
  time: string;
  supplies: Record<string, string>;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const UNITS = /^(0|[1-9][0-9]{0,38})$/;

/**
 * Chain data recorded in a file (`config/bridge/recorded/<network>.json`):
 * `{ "utxo": { "<chain id>": { height, time, balances: { address: units } } },
 *    "solana": { "<chain id>": { slot, time, supplies: { mint: units } } } }`.
 * An address or mint the file does not hold is an error, never a zero.
 */
export class RecordedChainData implements ChainDataAdapter {
  readonly source = 'recorded' as const;

  private constructor(
    private readonly utxo: Map<string, UtxoRecord>,
    private readonly solana: Map<string, SolanaRecord>,
  ) {}

  static load(network: Network, dir = DEFAULT_RECORDED_DIR): RecordedChainData {
    return RecordedChainData.fromFile(join(dir, `${network}.json`));
  }

  static fromFile(path: string): RecordedChainData {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new DeploymentError(`${path}: cannot read recorded chain data (${(err as Error).message})`);
    }
    const r = new Reader(path);
    const o = r.obj(json, '', ['utxo', 'solana'], ['$comment', 'network']);
    const utxo = new Map<string, UtxoRecord>();
    for (const [id, v] of Object.entries(r.record(o.utxo, 'utxo'))) {
      const p = `utxo.${id}`;
      const c = r.obj(v, p, ['height', 'time', 'balances']);
      utxo.set(id, {
        height: r.int(c.height, `${p}.height`, 0, 2 ** 40),
        time: r.str(c.time, `${p}.time`, ISO, 'an ISO 8601 UTC time'),
        balances: units(r, c.balances, `${p}.balances`),
      });
    }
    const solana = new Map<string, SolanaRecord>();
    for (const [id, v] of Object.entries(r.record(o.solana, 'solana'))) {
      const p = `solana.${id}`;
      const c = r.obj(v, p, ['slot', 'time', 'supplies']);
      solana.set(id, {
        slot: r.int(c.slot, `${p}.slot`, 0, 2 ** 52),
        time: r.str(c.time, `${p}.time`, ISO, 'an ISO 8601 UTC time'),
        supplies: units(r, c.supplies, `${p}.supplies`),
      });
    }
    return new RecordedChainData(utxo, solana);
  }

  async reserveBalances(addresses: readonly string[], asOf?: number): Promise<ReserveBalance[]> {
    return addresses.map((address) => {
      const rec = [...this.utxo.values()].find((c) => address in c.balances);
      if (!rec) throw new Error(`recorded chain data has no balance for ${address}`);
      if (asOf !== undefined && asOf !== rec.height) {
        throw new Error(`recorded chain data is at height ${rec.height}, not ${asOf}`);
      }
      return { address, balance: rec.balances[address] as string, height: rec.height, time: rec.time };
    });
  }

  async wrappedSupply(mint: string): Promise<WrappedSupply> {
    const rec = [...this.solana.values()].find((c) => mint in c.supplies);
    if (!rec) throw new Error(`recorded chain data has no supply for mint ${mint}`);
    return { supply: rec.supplies[mint] as string, slot: rec.slot, time: rec.time };
  }
}

function units(r: Reader, v: unknown, path: string): Record<string, string> {
  const o = r.record(v, path);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(o))
    out[k] = r.str(x, `${path}.${k}`, UNITS, 'base units as a decimal string');
  return out;
}

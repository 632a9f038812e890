/**
 * A coin node as a source (kind `node`): each poll reads the chain's figures over JSON-RPC and emits one
 * `MiningRecord` (height, tip time, difficulty, network hashrate, block reward, block spacing); the circulating
 * supply (`gettxoutsetinfo`, which walks the whole UTXO set: minutes on a mainnet node) is read in the background on
 * its own schedule and delivered with the poll after it finishes. Reserve balances for the bridge are read on demand
 * (`balances`). What each figure is and which RPC gives it: docs/sources.md ("Coin nodes").
 */
import { assetOfTicker } from '../../catalog/assets.ts';
import { JsonNumber, numberOf, toUnits } from '../exact-json.ts';
import { failureOf, SourceError } from '../http.ts';
import type {
  AddressBalance,
  BalanceReader,
  MiningRecord,
  SourceSnapshot,
  SupplyRecord,
  TickerSource,
} from '../types.ts';
import { NodeRpc, RPC_METHOD_NOT_FOUND, RpcError } from './rpc.ts';
import type { NodeRpcOptions } from './rpc.ts';

/** How reserve balances are read: the UTXO set (`scantxoutset`), the wallet's watch-only addresses, or either. */
export type BalanceMethod = 'auto' | 'scantxoutset' | 'wallet';

export interface NodeSourceConfig extends NodeRpcOptions {
  /** Source id; default `node:<ticker>` (`node:ltc`). */
  id: string;
  /** The coin's kit ticker (`LTC`). */
  coin: string;
  /** Budget of one poll (all its calls), ms; default 10,000. */
  timeoutMs: number;
  /** How often the circulating supply is read, ms; default 3,600,000 (it is slow and changes slowly). */
  supplyEveryMs: number;
  /** Budget of one supply read, ms; default 600,000. */
  supplyTimeoutMs: number;
  /** Blocks the mean block spacing is measured over; default 2016. */
  blockTimeWindow: number;
  /** Reserve balances: `auto` (default: `scantxoutset`, else the wallet), `scantxoutset` or `wallet`. */
  balances: BalanceMethod;
  /** Budget of one balance read, ms; default 600,000. */
  balancesTimeoutMs: number;
  /** Proof-of-work algorithm of the figures; default the catalog's (`scrypt`). */
  algorithm?: string;
}

/** Defaults of the optional fields of a node entry. */
export const NODE_DEFAULTS = {
  timeoutMs: 10_000,
  supplyEveryMs: 3_600_000,
  supplyTimeoutMs: 600_000,
  blockTimeWindow: 2016,
  balances: 'auto',
  balancesTimeoutMs: 600_000,
} as const;

export interface NodeSource extends TickerSource, BalanceReader {}

const DECIMALS = 8;

/** Reads `o[key]` of an object answer; `bad_response` when the answer is not an object. */
function objectOf(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof JsonNumber)
    throw new SourceError('bad_response', `${what}: expected an object`);
  return v as Record<string, unknown>;
}

function intOf(v: unknown, what: string): number {
  const n = numberOf(v);
  if (n === undefined || !Number.isSafeInteger(n) || n < 0)
    throw new SourceError('bad_response', `${what}: expected a non-negative integer`);
  return n;
}

/** A figure for the record: the number when it is one, else the raw value, which validation then rejects. */
const figure = (v: unknown): unknown => numberOf(v) ?? (v instanceof JsonNumber ? v.text : v);

export function createNodeSource(cfg: NodeSourceConfig, deps: { now?: () => number } = {}): NodeSource {
  const now = deps.now ?? Date.now;
  const asset = assetOfTicker(cfg.coin);
  const algorithm = (cfg.algorithm ?? asset.hashingAlgorithm ?? 'unknown').toLowerCase();
  const rpc = new NodeRpc(cfg);
  const background = new AbortController();
  let supplyJob: Promise<void> | null = null;
  let supplyStarted = -Infinity;
  let supplyDone: { record?: SupplyRecord; error?: { message: string; reason: string } } | null = null;
  let txoutsetArgs: unknown[] = ['none'];
  let statsByHash = false;
  let statsMissing = false;
  let hashpsMissing = false;
  const spacing = new Map<number, number | null>();
  const rewards = new Map<number, unknown>();

  /** `gettxoutsetinfo`: LTC 0.21 takes `hash_type` ("none" skips hashing: faster); DOGE 1.14 and DGB 7 take none. */
  async function readSupply(): Promise<SupplyRecord> {
    const limits = { timeoutMs: cfg.supplyTimeoutMs, signal: background.signal };
    let r: unknown;
    try {
      r = await rpc.call('gettxoutsetinfo', txoutsetArgs, limits);
    } catch (err) {
      // An older node refuses the argument with its help text (-1) or as an invalid parameter (-8).
      if (!(err instanceof RpcError) || txoutsetArgs.length === 0 || (err.code !== -1 && err.code !== -8))
        throw err;
      txoutsetArgs = [];
      r = await rpc.call('gettxoutsetinfo', txoutsetArgs, limits);
    }
    const o = objectOf(r, 'gettxoutsetinfo');
    return {
      asset: asset.id,
      kind: 'circulating',
      value: figure(o['total_amount']) as number,
      source: cfg.id,
      sourceKind: 'node',
      ts: now(),
    };
  }

  function startSupply(t: number): Promise<void> {
    supplyStarted = t;
    const job = readSupply().then(
      (record) => void (supplyDone = { record }),
      (err: unknown) => {
        supplyDone = {
          error: { message: err instanceof Error ? err.message : String(err), reason: failureOf(err) },
        };
        // A failed read is tried again a minute later, not a whole schedule later.
        supplyStarted = t - cfg.supplyEveryMs + Math.min(60_000, cfg.supplyEveryMs);
      },
    );
    supplyJob = job.finally(() => (supplyJob = null));
    return supplyJob;
  }

  /** An optional figure: null when the node has no such call (remembered), the error otherwise. */
  async function optional<T>(read: () => Promise<T>, missing: () => void): Promise<T | null> {
    try {
      return await read();
    } catch (err) {
      if (err instanceof RpcError && err.code === RPC_METHOD_NOT_FOUND) {
        missing();
        return null;
      }
      throw err;
    }
  }

  return {
    id: cfg.id,
    kind: 'node',
    supplies: ['supply', 'mining', 'balances'],
    timeoutMs: cfg.timeoutMs,

    async poll(signal): Promise<SourceSnapshot> {
      const t = now();
      const call = (method: string, params: unknown[] = []) =>
        rpc.call(method, params, { timeoutMs: cfg.timeoutMs, signal });
      let started: Promise<void> | null = null;
      if (supplyJob === null && t - supplyStarted >= cfg.supplyEveryMs) started = startSupply(t);

      const info = objectOf(await call('getblockchaininfo'), 'getblockchaininfo');
      if (info['initialblockdownload'] === true)
        throw new SourceError(
          'bad_response',
          `${rpc.where}: the node is still syncing (initial block download)`,
        );
      const height = intOf(info['blocks'], 'getblockchaininfo.blocks');
      const best = info['bestblockhash'];
      if (typeof best !== 'string')
        throw new SourceError('bad_response', 'getblockchaininfo.bestblockhash: expected a hash');
      const tip = objectOf(await call('getblockheader', [best]), 'getblockheader');
      const tipSeconds = intOf(tip['time'], 'getblockheader.time');
      // DigiByte reports one difficulty per algorithm instead of `difficulty`: the configured algorithm's, or none
      // (its `getdifficulty` is the node's own mining algorithm's, which may be another: never a guess).
      const perAlgo = info['difficulties'];
      const difficulty: unknown =
        info['difficulty'] ??
        (typeof perAlgo === 'object' && perAlgo !== null
          ? ((perAlgo as Record<string, unknown>)[algorithm] ?? null)
          : await call('getdifficulty'));

      const hashps = hashpsMissing
        ? null
        : await optional(
            () => call('getnetworkhashps'),
            () => (hashpsMissing = true),
          );

      // Subsidy of the tip block (schedule value on Litecoin; claimed amount on Dogecoin ≥ 1.14.7, by hash only).
      if (!rewards.has(height) && !statsMissing) {
        const subsidy = await optional(
          async () => {
            try {
              return objectOf(
                await call('getblockstats', [statsByHash ? best : height, ['subsidy']]),
                'getblockstats',
              );
            } catch (err) {
              if (!(err instanceof RpcError) || statsByHash || err.code === RPC_METHOD_NOT_FOUND) throw err;
              statsByHash = true;
              return objectOf(await call('getblockstats', [best, ['subsidy']]), 'getblockstats');
            }
          },
          () => (statsMissing = true),
        );
        rewards.clear();
        rewards.set(height, subsidy === null ? null : subsidy['subsidy']);
      }
      // The subsidy is an integer of base units; anything else is not a reading.
      const units = rewards.get(height) ?? null;
      const rejects: SourceSnapshot['rejects'] = [];
      let blockReward: number | null = null;
      if (units instanceof JsonNumber && toUnits(units, 0) !== null)
        blockReward = Number(units.text) / 10 ** DECIMALS;
      else if (units !== null)
        rejects.push({ reason: 'node.subsidy: must be an integer of base units', record: figure(units) });

      // Mean spacing of the last `blockTimeWindow` blocks, from the chain's own block times. Multi-algorithm chains
      // interleave their algorithms' blocks, so the chain's spacing is not one algorithm's: null there.
      if (!spacing.has(height)) {
        // Never back to the genesis block, whose time is fixed long before the chain ran (regtest, new testnets).
        const n = Math.min(cfg.blockTimeWindow, height - 1);
        let mean: number | null = null;
        if (n > 0 && asset.hashingAlgorithm !== 'multi-algo') {
          const oldHash = await call('getblockhash', [height - n]);
          const old = objectOf(await call('getblockheader', [oldHash]), 'getblockheader');
          const s = (tipSeconds - intOf(old['time'], 'getblockheader.time')) / n;
          mean = s > 0 ? s : null;
        }
        spacing.clear();
        spacing.set(height, mean);
      }

      const mining: MiningRecord = {
        asset: asset.id,
        algorithm,
        difficulty: figure(difficulty) as number,
        blockReward,
        blockTimeSeconds: spacing.get(height) ?? null,
        height,
        networkHashps: hashps === null ? null : (figure(hashps) as number),
        tipTime: tipSeconds * 1000,
        source: cfg.id,
        observedAt: t,
      };
      // A supply read started by this poll gets a moment to finish (instant on a small chain), else next poll.
      if (started) await Promise.race([started, new Promise((r) => setTimeout(r, 1000).unref())]);
      const snapshot: SourceSnapshot = { source: cfg.id, ts: t, tickers: [], mining: [mining] };
      if (rejects.length > 0) snapshot.rejects = rejects;
      const done = supplyDone;
      supplyDone = null;
      if (done?.record) snapshot.supply = [done.record];
      if (done?.error) snapshot.errors = [{ source: `${cfg.id}:supply`, ...done.error }];
      return snapshot;
    },

    async balances(addresses) {
      return readBalances(rpc, cfg, addresses, background.signal);
    },

    async close() {
      background.abort();
      await supplyJob;
    },
  };
}

/** Core runs one UTXO scan at a time and refuses a second (-8 "Scan already in progress"): wait for the other to end. */
const SCAN_BUSY_RETRIES = 10;
const SCAN_BUSY_WAIT_MS = 250;

async function scanWhenFree(
  call: (method: string, params?: unknown[]) => Promise<unknown>,
  addresses: readonly string[],
  signal: AbortSignal,
): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call('scantxoutset', ['start', addresses.map((a) => `addr(${a})`)]);
    } catch (err) {
      const busy = err instanceof RpcError && err.code === -8 && /in progress/i.test(err.rpcMessage);
      if (!busy || attempt === SCAN_BUSY_RETRIES || signal.aborted) throw err;
      await new Promise((r) => setTimeout(r, SCAN_BUSY_WAIT_MS));
    }
  }
}

/**
 * Confirmed balances of `addresses`, exactly, at one block. `scantxoutset` scans the UTXO set once for all of them
 * (Litecoin Core 0.21, DigiByte 7.17+); nodes without it (Dogecoin 1.14 and its forks) need the addresses imported
 * watch-only into their wallet (`importaddress <address> "" true`), whose unspent outputs are then listed.
 */
async function readBalances(
  rpc: NodeRpc,
  cfg: NodeSourceConfig,
  addresses: readonly string[],
  signal: AbortSignal,
): Promise<AddressBalance[]> {
  const limits = { timeoutMs: cfg.balancesTimeoutMs, signal };
  const call = (method: string, params: unknown[] = []) => rpc.call(method, params, limits);
  // Each address's script (grouping the scan's outputs) and whether the wallet watches it.
  const scripts = new Map<string, string>();
  const validated = new Map<string, Record<string, unknown>>();
  for (const a of addresses) {
    const v = objectOf(await call('validateaddress', [a]), 'validateaddress');
    if (v['isvalid'] !== true)
      throw new SourceError('bad_response', `${a} is not a valid address on the network of ${rpc.where}`);
    if (typeof v['scriptPubKey'] !== 'string')
      throw new SourceError('bad_response', 'validateaddress: no scriptPubKey');
    scripts.set(v['scriptPubKey'], a);
    validated.set(a, v);
  }
  const sums = new Map<string, bigint>(addresses.map((a) => [a, 0n]));
  const add = (address: string | undefined, amount: unknown): void => {
    const units = amount instanceof JsonNumber ? toUnits(amount, DECIMALS) : null;
    if (address === undefined || !sums.has(address)) return;
    if (units === null)
      throw new SourceError('bad_response', `an unspent output of ${address} has no valid amount`);
    sums.set(address, (sums.get(address) as bigint) + units);
  };
  let height = 0;
  let scanned = false;
  if (cfg.balances !== 'wallet') {
    try {
      const r = objectOf(await scanWhenFree(call, addresses, signal), 'scantxoutset');
      if (r['success'] !== true) throw new SourceError('bad_response', 'scantxoutset: the scan was aborted');
      for (const u of Array.isArray(r['unspents']) ? r['unspents'] : []) {
        const o = objectOf(u, 'scantxoutset.unspents[]');
        add(scripts.get(String(o['scriptPubKey'])), o['amount']);
      }
      // DigiByte 7.17's older result has no height: the tip at the time of the answer.
      height =
        r['height'] !== undefined
          ? intOf(r['height'], 'scantxoutset.height')
          : intOf(await call('getblockcount'), 'getblockcount');
      scanned = true;
    } catch (err) {
      if (!(cfg.balances === 'auto' && err instanceof RpcError && err.code === RPC_METHOD_NOT_FOUND))
        throw err;
    }
  }
  if (!scanned) {
    for (const a of addresses) {
      // Dogecoin 1.14 says it in `validateaddress`; Core 0.18+ moved it to `getaddressinfo`.
      const v = validated.get(a) as Record<string, unknown>;
      const info = 'ismine' in v ? v : objectOf(await call('getaddressinfo', [a]), 'getaddressinfo');
      if (info['ismine'] !== true && info['iswatchonly'] !== true)
        throw new SourceError(
          'bad_response',
          `${a} is not in the node's wallet: import it watch-only (importaddress ${a} "" true) or use a node with scantxoutset`,
        );
    }
    // The height before and after the listing must agree, so the balances are those of one block.
    for (let attempt = 0; ; attempt++) {
      const before = intOf(await call('getblockcount'), 'getblockcount');
      for (const a of addresses) sums.set(a, 0n);
      const list = await call('listunspent', [1, 9_999_999, [...addresses]]);
      for (const u of Array.isArray(list) ? list : []) {
        const o = objectOf(u, 'listunspent[]');
        add(typeof o['address'] === 'string' ? o['address'] : undefined, o['amount']);
      }
      height = intOf(await call('getblockcount'), 'getblockcount');
      if (height === before) break;
      if (attempt === 2)
        throw new SourceError('bad_response', 'listunspent: the chain kept moving during the read');
    }
  }
  const header = objectOf(
    await call('getblockheader', [await call('getblockhash', [height])]),
    'getblockheader',
  );
  const blockTime = intOf(header['time'], 'getblockheader.time') * 1000;
  return addresses.map((address) => ({ address, units: sums.get(address) as bigint, height, blockTime }));
}

/**
 * Shared by the live-chain-data and attester tests (`test/bridge/live*.test.ts`): the testnet deployment, the
 * balances and supplies the fake readers report (plain objects with `balances` / `tokenSupply`, as a node, a
 * Blockbook explorer or a Solana endpoint would be), and small helpers to hold and release a read.
 */
import { keyFromSeedHex } from '../../../src/bridge/attestation.ts';
import { loadDeployment } from '../../../src/bridge/deployment.ts';
import type { BridgeAsset } from '../../../src/bridge/model.ts';
import type {
  LiveBalance,
  LiveBalanceReader,
  LiveReaders,
  LiveSupplyReader,
} from '../../../src/bridge/live-chain-data.ts';

export const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
export const BLOCK_TIME = 1_767_225_000_000; // 2025-12-31T23:50:00Z
const SLOT_TIME = 1_767_225_300_000; // 2025-12-31T23:55:00Z
export const KEY = keyFromSeedHex('11'.repeat(32));

export const deployment = loadDeployment('testnet');
const asset = (ticker: string): BridgeAsset => {
  const a = deployment.assets.find((x) => x.ticker === ticker);
  if (!a) throw new Error(`no ${ticker} in the testnet deployment`);
  return a;
};
export const LKY = asset('LKY');
export const DOGE = asset('DOGE');
export const [LKY_A, LKY_B] = LKY.reserveAddresses as [string, string];
export const [DOGE_A, DOGE_B] = DOGE.reserveAddresses as [string, string];

/** Base units held by each reserve address in these tests. */
const HELD: Record<string, bigint> = {
  [LKY_A]: 150_000_000n,
  [LKY_B]: 50_000_000n,
  [DOGE_A]: 12_345_678_901_234_567_891n, // above 2^63: kept exact
  [DOGE_B]: 0n,
};
export const SUPPLY: Record<string, bigint> = { [LKY.wrapped.mint]: 100_000_000n, [DOGE.wrapped.mint]: 0n };

/** A balance reader as a node or Blockbook source is one: it records each call; `answer` may be replaced. */
export interface FakeBalances extends LiveBalanceReader {
  calls: string[][];
  answer: (addresses: readonly string[]) => Promise<LiveBalance[]>;
}
/** A supply reader as a Solana source is one: it records each mint asked for; `decimals` may be changed. */
export interface FakeSupply extends LiveSupplyReader {
  calls: string[];
  decimals: number;
}

function balanceReader(id: string, height: number): FakeBalances {
  const calls: string[][] = [];
  const reader: FakeBalances = {
    id,
    calls,
    answer: async (addresses) =>
      addresses.map((address) => ({ address, units: HELD[address] ?? 0n, height, blockTime: BLOCK_TIME })),
    balances(addresses) {
      calls.push([...addresses]);
      return reader.answer(addresses);
    },
  };
  return reader;
}

function supplyReader(id: string): FakeSupply {
  const calls: string[] = [];
  const reader: FakeSupply = {
    id,
    calls,
    decimals: 8,
    tokenSupply(mint) {
      calls.push(mint);
      return Promise.resolve({
        units: SUPPLY[mint] ?? 0n,
        decimals: reader.decimals,
        slot: 345_678_901,
        blockTime: SLOT_TIME,
      });
    },
  };
  return reader;
}

export function readers() {
  const lky = balanceReader('node:lky', 1_234_567);
  const doge = balanceReader('blockbook:doge', 5_432_100);
  const solana = supplyReader('solana');
  const live: LiveReaders = {
    balances: { 'luckycoin-testnet': lky, 'dogecoin-testnet': doge },
    tokenSupply: { 'solana-devnet': solana },
  };
  return { lky, doge, solana, live };
}

/** A promise and its resolver: holds a fake read until the test lets it go. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => {};
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

/** Lets pending I/O callbacks run (not faked by the fake timers used below). */
export const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

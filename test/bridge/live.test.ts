/**
 * Live chain data for the proof of reserves (src/bridge/live-chain-data.ts) over fake readers (`support/live.ts`):
 * the readers it needs, reserve balances and wrapped supply. Signing from it and the attester are in
 * `live-attester.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { DeploymentError } from '../../src/bridge/model.ts';
import { LiveChainData } from '../../src/bridge/live-chain-data.ts';
import type { LiveBalance } from '../../src/bridge/live-chain-data.ts';
import {
  BLOCK_TIME,
  deployment,
  DOGE,
  DOGE_A,
  DOGE_B,
  LKY,
  LKY_A,
  LKY_B,
  readers,
  SUPPLY,
} from './support/live.ts';

describe('LiveChainData', () => {
  it('says source "live"', () => {
    expect(new LiveChainData(deployment, readers().live).source).toBe('live');
  });

  describe('refuses a deployment chain without a reader, naming the chain and what it reads', () => {
    it('a UTXO chain without a balance reader', () => {
      const { lky, solana } = readers();
      const build = () =>
        new LiveChainData(deployment, {
          balances: { 'luckycoin-testnet': lky },
          tokenSupply: { 'solana-devnet': solana },
        });
      expect(build).toThrow(DeploymentError);
      expect(build).toThrow(
        'the sources file\'s bridge section names no source for bridge.balances["dogecoin-testnet"] (DOGE reserves)',
      );
    });

    it('every missing reader, in deployment order', () => {
      expect(() => new LiveChainData(deployment, { balances: {}, tokenSupply: {} })).toThrow(
        "the sources file's bridge section names no source for " +
          'bridge.balances["luckycoin-testnet"] (LKY reserves), ' +
          'bridge.tokenSupply["solana-devnet"] (wLKY supply), ' +
          'bridge.balances["dogecoin-testnet"] (DOGE reserves), ' +
          'bridge.tokenSupply["solana-devnet"] (wDOGE supply)',
      );
    });

    it('a reader under another chain id does not count', () => {
      const { lky, doge, solana } = readers();
      expect(
        () =>
          new LiveChainData(deployment, {
            balances: { 'luckycoin-testnet': lky, dogecoin: doge },
            tokenSupply: { 'solana-devnet': solana },
          }),
      ).toThrow('bridge.balances["dogecoin-testnet"] (DOGE reserves)');
    });
  });

  describe('reserveBalances', () => {
    it("asks the reader of the addresses' chain and maps units to decimal strings, block time to ISO", async () => {
      const { lky, doge, live } = readers();
      const chain = new LiveChainData(deployment, live);
      expect(await chain.reserveBalances([DOGE_A, DOGE_B])).toEqual([
        {
          address: DOGE_A,
          balance: '12345678901234567891',
          height: 5_432_100,
          time: '2025-12-31T23:50:00.000Z',
        },
        { address: DOGE_B, balance: '0', height: 5_432_100, time: '2025-12-31T23:50:00.000Z' },
      ]);
      expect(doge.calls).toEqual([[DOGE_A, DOGE_B]]);
      expect(lky.calls).toEqual([]);
      expect(await chain.reserveBalances([LKY_B])).toEqual([
        { address: LKY_B, balance: '50000000', height: 1_234_567, time: '2025-12-31T23:50:00.000Z' },
      ]);
      expect(lky.calls).toEqual([[LKY_B]]);
    });

    it('refuses asOf: it reads the newest block only (and asks nobody)', async () => {
      const { lky, live } = readers();
      await expect(new LiveChainData(deployment, live).reserveBalances([LKY_A], 1_234_000)).rejects.toThrow(
        'live chain data reads the newest block only',
      );
      expect(lky.calls).toEqual([]);
    });

    it('refuses addresses no asset holds, and a mix of two assets', async () => {
      const chain = new LiveChainData(deployment, readers().live);
      await expect(chain.reserveBalances(['mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef'])).rejects.toThrow(
        'no asset of the testnet deployment holds these addresses',
      );
      await expect(chain.reserveBalances([LKY_A, DOGE_A])).rejects.toThrow(
        'no asset of the testnet deployment holds these addresses',
      );
    });

    it.each<[string, (asked: readonly string[]) => LiveBalance[]]>([
      [
        'in another order',
        (asked) =>
          [...asked].reverse().map((address) => ({ address, units: 1n, height: 1, blockTime: BLOCK_TIME })),
      ],
      ['fewer', (asked) => [{ address: asked[0] as string, units: 1n, height: 1, blockTime: BLOCK_TIME }]],
      [
        'one more',
        (asked) =>
          [...asked, LKY_A].map((address) => ({ address, units: 1n, height: 1, blockTime: BLOCK_TIME })),
      ],
      [
        'for another address',
        (asked) => asked.map(() => ({ address: DOGE_A, units: 1n, height: 1, blockTime: BLOCK_TIME })),
      ],
    ])('refuses an answer for other addresses than asked: %s', async (_name, answer) => {
      const { lky, live } = readers();
      lky.answer = async (asked) => answer(asked);
      await expect(new LiveChainData(deployment, live).reserveBalances([LKY_A, LKY_B])).rejects.toThrow(
        'node:lky answered for other addresses than asked',
      );
    });

    it("passes the reader's own failure on", async () => {
      const { lky, live } = readers();
      lky.answer = () =>
        Promise.reject(new Error('http://lky-node:8332/: HTTP 401, the RPC credentials are wrong'));
      await expect(new LiveChainData(deployment, live).reserveBalances([LKY_A])).rejects.toThrow(
        'HTTP 401, the RPC credentials are wrong',
      );
    });
  });

  describe('wrappedSupply', () => {
    it("asks the mint's chain reader and maps units, slot and time", async () => {
      const { solana, live } = readers();
      SUPPLY[DOGE.wrapped.mint] = 18_446_744_073_709_551_615n; // u64::MAX: exact
      try {
        expect(await new LiveChainData(deployment, live).wrappedSupply(DOGE.wrapped.mint)).toEqual({
          supply: '18446744073709551615',
          slot: 345_678_901,
          time: '2025-12-31T23:55:00.000Z',
        });
      } finally {
        SUPPLY[DOGE.wrapped.mint] = 0n;
      }
      expect(solana.calls).toEqual([DOGE.wrapped.mint]);
    });

    it("refuses a supply whose decimals differ from the deployment's", async () => {
      const { solana, live } = readers();
      solana.decimals = 9;
      await expect(new LiveChainData(deployment, live).wrappedSupply(LKY.wrapped.mint)).rejects.toThrow(
        `solana: mint ${LKY.wrapped.mint} has 9 decimals, the deployment says 8`,
      );
    });

    it('refuses a mint of no asset', async () => {
      const mint = 'EPjFWdd5AufqSSqeM2qJxyxfWHGkWHZfxkKRj8NQT1v';
      await expect(new LiveChainData(deployment, readers().live).wrappedSupply(mint)).rejects.toThrow(
        `no asset of the testnet deployment holds mint ${mint}`,
      );
    });
  });
});

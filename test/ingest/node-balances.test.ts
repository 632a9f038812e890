/**
 * The coin-node source's reserve balances (`src/ingest/node/`) against recorded JSON-RPC answers (`support/node.ts`):
 * the UTXO scan (scantxoutset) and the wallet's watch-only outputs (listunspent), summed exactly.
 */
import { describe, expect, it } from 'vitest';
import type { RpcError } from '../../src/ingest/node/rpc.ts';
import {
  answer,
  calls,
  D1,
  D2,
  DGB,
  DOGE,
  failure,
  LTC,
  LTC_TIP,
  LTC_TIP_TIME,
  nodeSource,
  useNodeSources,
  W,
  W2,
  without,
} from './support/node.ts';

useNodeSources();

describe('node source: reserve balances', () => {
  const at121 = { height: 121, blockTime: LTC_TIP_TIME * 1000 };

  it('scantxoutset: outputs grouped by the scripts validateaddress gives, summed exactly', async () => {
    const { server, source } = await nodeSource(LTC);
    expect(0.1 + 0.2).not.toBe(0.3); // why amounts are never added as doubles
    expect(await source.balances([W, W2])).toEqual([
      { address: W, units: 30_000_000n, ...at121 }, // 0.10000000 + 0.20000000
      { address: W2, units: 150_000_000n, ...at121 },
    ]);
    expect(calls(server).filter(([m]) => m !== 'gettxoutsetinfo')).toEqual([
      ['validateaddress', [W]],
      ['validateaddress', [W2]],
      ['scantxoutset', ['start', [`addr(${W})`, `addr(${W2})`]]],
      ['getblockhash', [121]],
      ['getblockheader', [LTC_TIP]],
    ]);
  });

  it('scantxoutset without a height (DigiByte 7.17): the height is the tip getblockcount gives after the scan', async () => {
    const dgb = 'D977hDek7deLYTCzPsQ23hhGiQeD8bfUZz';
    const { server, source } = await nodeSource(
      {
        ...DGB,
        validateaddress: 'dgb-validateaddress.json',
        scantxoutset: 'dgb-scantxoutset.json',
        getblockcount: 'dgb-getblockcount-20500000.json',
        getblockhash: 'dgb-getblockhash-20500000.json',
      },
      { id: 'node:dgb', coin: 'DGB', algorithm: 'scrypt' },
    );
    expect(await source.balances([dgb])).toEqual([
      { address: dgb, units: 30_000_000n, height: 20_500_000, blockTime: 1795529745 * 1000 },
    ]);
    expect(calls(server).map(([m]) => m)).toEqual([
      'validateaddress',
      'scantxoutset',
      'getblockcount',
      'getblockhash',
      'getblockheader',
    ]);
  });

  it('an amount with more than 8 decimals is an error, never rounded', async () => {
    const { source } = await nodeSource({
      ...LTC,
      scantxoutset: (_p, id) =>
        answer('ltc-scantxoutset.json', id, (b) => b.replace('"amount":0.10000000', '"amount":0.100000001')),
    });
    const err = await failure(source.balances([W, W2]));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toBe(`an unspent output of ${W} has no valid amount`);
  });

  it('auto: scantxoutset missing (-32601) → the wallet’s watch-only outputs', async () => {
    const { server, source } = await nodeSource(without(LTC, 'scantxoutset'));
    expect(await source.balances([W, W2])).toEqual([
      { address: W, units: 30_000_000n, ...at121 },
      { address: W2, units: 150_000_000n, ...at121 },
    ]);
    expect(calls(server).map(([m, p]) => (m === 'listunspent' ? [m, p] : m))).toEqual([
      'validateaddress',
      'validateaddress',
      'scantxoutset',
      'getaddressinfo', // Litecoin 0.21 says ismine/iswatchonly here, not in validateaddress
      'getaddressinfo',
      'getblockcount',
      ['listunspent', [1, 9_999_999, [W, W2]]],
      'getblockcount',
      'getblockhash',
      'getblockheader',
    ]);
  });

  it('scantxoutset chosen and missing → the RPC error, no wallet fallback', async () => {
    const { server, source } = await nodeSource(without(LTC, 'scantxoutset'), { balances: 'scantxoutset' });
    const err = await failure(source.balances([W]));
    expect(err.reason).toBe('rpc_error');
    expect((err as RpcError).code).toBe(-32601);
    expect(calls(server, 'listunspent')).toEqual([]);
  });

  it('wallet (Dogecoin 1.14: validateaddress tells ismine/iswatchonly): listunspent amounts per address', async () => {
    const { server, source } = await nodeSource(DOGE, { id: 'node:doge', coin: 'DOGE', balances: 'wallet' });
    expect(await source.balances([D1])).toEqual([
      // 2,839,475,620,122,345,679 koinu: far past 2^53, where a sum of doubles loses the last digits
      { address: D1, units: 2_839_475_620_122_345_679n, height: 5_400_000, blockTime: 1795529760 * 1000 },
    ]);
    const asDoubles = Math.round((0.1 + Number('28394756201.12345679')) * 1e8);
    expect(BigInt(asDoubles)).not.toBe(2_839_475_620_122_345_679n);
    const methods = calls(server)
      .map(([m]) => m)
      .filter((m) => m !== 'gettxoutsetinfo');
    expect(methods).toEqual([
      'validateaddress',
      'getblockcount',
      'listunspent',
      'getblockcount',
      'getblockhash',
      'getblockheader',
    ]);
  });

  it.each([
    ['Litecoin 0.21 (getaddressinfo)', 'ltc', W],
    ['Dogecoin 1.14 (validateaddress)', 'doge', D2],
  ])('an address the wallet does not watch → an error telling to importaddress: %s', async (_n, coin, a) => {
    const answers =
      coin === 'ltc' ? { ...LTC, getaddressinfo: 'ltc-getaddressinfo-legacy-not-watched.json' } : { ...DOGE };
    const { server, source } = await nodeSource(answers, {
      balances: 'wallet',
      ...(coin === 'doge' ? { id: 'node:doge', coin: 'DOGE' } : {}),
    });
    const err = await failure(source.balances([a]));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toContain(
      `${a} is not in the node's wallet: import it watch-only (importaddress ${a} "" true)`,
    );
    expect(calls(server, 'listunspent')).toEqual([]);
  });

  it('wallet: the height moved during the listing → listed again, balances at the new height', async () => {
    const counts = [121, 122, 122, 122];
    const { server, source } = await nodeSource(
      {
        ...LTC,
        // getblockcount's recorded answer with the height the test's chain is at (edited in memory); the tip's
        // recorded hash and header stand for block 122.
        getblockcount: (_p, id) =>
          answer('ltc-getblockcount-121.json', id, (b) => b.replace('121', String(counts.shift() ?? 122))),
        getblockhash: 'ltc-getblockhash-121.json',
      },
      { balances: 'wallet' },
    );
    const r = await source.balances([W]);
    expect(r).toEqual([{ address: W, units: 30_000_000n, height: 122, blockTime: LTC_TIP_TIME * 1000 }]);
    expect(calls(server, 'listunspent')).toHaveLength(2);
    expect(calls(server, 'getblockhash')).toEqual([['getblockhash', [122]]]);
  });

  it('wallet: a chain that keeps moving → an error after three listings', async () => {
    let h = 121;
    const { server, source } = await nodeSource(
      {
        ...LTC,
        getblockcount: (_p, id) =>
          answer('ltc-getblockcount-121.json', id, (b) => b.replace('121', String(h++))),
      },
      { balances: 'wallet' },
    );
    const err = await failure(source.balances([W]));
    expect(err.message).toBe('listunspent: the chain kept moving during the read');
    expect(calls(server, 'listunspent')).toHaveLength(3);
  });

  it('scantxoutset while another client scans ("Scan already in progress") → asked again, then the balances', async () => {
    let busy = 2;
    const { server, source } = await nodeSource({
      ...LTC,
      scantxoutset: () => (busy-- > 0 ? 'ltc-error-scan-in-progress.json' : 'ltc-scantxoutset.json'),
    });
    expect(await source.balances([W])).toEqual([{ address: W, units: 30_000_000n, ...at121 }]);
    expect(calls(server, 'scantxoutset')).toHaveLength(3);
  });

  it('an address the node says is invalid (a mainnet address on regtest) → an error, nothing scanned', async () => {
    const mainnet = 'LQTpS3VaYTjCr4s9Y1t5zbeY26zevf7Fb3';
    const { server, source } = await nodeSource(LTC);
    const err = await failure(source.balances([W, mainnet]));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toBe(`${mainnet} is not a valid address on the network of ${server.url}/`);
    expect(calls(server, 'scantxoutset')).toEqual([]);
  });
});

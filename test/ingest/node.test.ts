/**
 * The coin-node source (`src/ingest/node/`) against recorded JSON-RPC answers served by a local `node:http` server
 * (`test/support/recorded-http.ts`): Litecoin Core 0.21 regtest captures, and Dogecoin 1.14 / DigiByte 7.17 bodies
 * built from their source (`test/fixtures/node/README.md` says which is which). No node is started here. Covered: the
 * figures of a poll and the calls that produce them, cookie auth, and the fallbacks for older nodes. Whole-poll
 * failures and absurd figures are in `node-failures.test.ts`, reserve balances in `node-balances.test.ts`; the
 * recorded nodes and helpers in `support/node.ts`.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { toUnits } from '../../src/ingest/exact-json.ts';
import {
  basic,
  calls,
  COOKIE_1,
  COOKIE_2,
  cookieFile,
  DGB,
  DOGE,
  DOGE_NEXT,
  DOGE_TIP,
  DOGE_TOTAL,
  LTC,
  LTC_OLD,
  LTC_OLD_TIME,
  LTC_TIP,
  LTC_TIP_TIME,
  nodeSource,
  NOW,
  poll,
  pollCalls,
  setClock,
  setDogeHeight,
  useNodeSources,
  validate,
  without,
} from './support/node.ts';

useNodeSources();

describe('node source: a healthy Litecoin Core 0.21 node', () => {
  it('emits one MiningRecord and the circulating supply from gettxoutsetinfo', async () => {
    const { source } = await nodeSource(LTC);
    const s = await poll(source);
    expect(s.source).toBe('node:ltc');
    expect(s.ts).toBe(NOW);
    expect(s.tickers).toEqual([]);
    expect(s.mining).toEqual([
      {
        asset: 'litecoin',
        algorithm: 'scrypt',
        difficulty: 4.656542373906925e-10,
        blockReward: 50, // getblockstats subsidy 5000000000 litoshi / 1e8
        blockTimeSeconds: (LTC_TIP_TIME - LTC_OLD_TIME) / 10, // 150: tip vs block 121 − 10
        height: 121,
        networkHashps: 0.01333333333333333,
        tipTime: LTC_TIP_TIME * 1000,
        source: 'node:ltc',
        observedAt: NOW,
      },
    ]);
    expect(s.supply).toEqual([
      {
        asset: 'litecoin',
        kind: 'circulating',
        value: 6050,
        source: 'node:ltc',
        sourceKind: 'node',
        ts: NOW,
      },
    ]);
    expect(s.rejects).toBeUndefined();
    expect(s.errors).toBeUndefined();
    const { prepared, reasons } = validate(s);
    expect(reasons).toEqual([]);
    expect([prepared.mining.length, prepared.supply.length]).toEqual([1, 1]);
  });

  it('asks for exactly what it reads: methods and params of every request', async () => {
    const { server, source } = await nodeSource(LTC);
    await poll(source);
    expect(pollCalls(server)).toEqual([
      ['getblockchaininfo', []],
      ['getblockheader', [LTC_TIP]],
      ['getnetworkhashps', []],
      ['getblockstats', [121, ['subsidy']]],
      ['getblockhash', [111]],
      ['getblockheader', [LTC_OLD]],
    ]);
    // Litecoin 0.21 takes hash_type: "none" skips hashing the UTXO set.
    expect(calls(server, 'gettxoutsetinfo')).toEqual([['gettxoutsetinfo', ['none']]]);
    const bodies = server.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(server.requests.every((r) => r.method === 'POST' && r.url.pathname === '/')).toBe(true);
    expect(bodies.every((b) => b['jsonrpc'] === '1.0' && typeof b['id'] === 'number')).toBe(true);
    expect(new Set(bodies.map((b) => b['id'])).size).toBe(bodies.length);
  });

  it('reads the figures of a height once: a second poll at the same tip asks only for the tip', async () => {
    const { server, source } = await nodeSource(LTC);
    const first = await poll(source);
    const before = server.requests.length;
    setClock(NOW + 60_000);
    const second = await poll(source);
    expect(
      server.requests.slice(before).map((r) => (JSON.parse(r.body) as { method: string }).method),
    ).toEqual(['getblockchaininfo', 'getblockheader', 'getnetworkhashps']);
    expect(second.mining).toEqual([{ ...(first.mining?.[0] as object), observedAt: NOW + 60_000 }]);
    // The supply is read again only after supplyEveryMs (an hour by default).
    expect(second.supply).toBeUndefined();
  });

  it('a failed supply read is a failed part of the poll (`errors`); -28 does not make it drop "none"', async () => {
    // The node restarted between calls: its supply read meets the warm-up, the chain-state calls do not.
    const { server, source } = await nodeSource(
      { ...LTC, gettxoutsetinfo: 'ltc-error-warmup.json' },
      { supplyEveryMs: 1_000 },
    );
    const s1 = await poll(source);
    expect(s1.supply).toBeUndefined();
    expect(s1.mining).toHaveLength(1);
    expect(s1.errors).toEqual([
      {
        source: 'node:ltc:supply',
        message: 'gettxoutsetinfo: RPC error -28: Loading block index...',
        reason: 'rpc_error',
      },
    ]);
    setClock(NOW + 1_000);
    const s2 = await poll(source);
    expect(s2.errors).toHaveLength(1);
    expect(calls(server, 'gettxoutsetinfo')).toEqual([
      ['gettxoutsetinfo', ['none']],
      ['gettxoutsetinfo', ['none']],
    ]);
  });

  it('authenticates with the cookie file and re-reads it when the node writes a new one', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    const { source } = await nodeSource(LTC);
    const auth = () =>
      spy.mock.calls.map(([, init]) => (init?.headers as Record<string, string>)['authorization']);
    await poll(source);
    const first = auth();
    expect(first.length).toBeGreaterThan(0);
    expect(new Set(first)).toEqual(new Set([basic(COOKIE_1)]));
    // A restarted node writes a new cookie: the next call uses it without restarting the source.
    writeFileSync(cookieFile, `${COOKIE_2}\n`);
    spy.mockClear();
    setClock(NOW + 60_000);
    await poll(source);
    expect(new Set(auth())).toEqual(new Set([basic(COOKIE_2)]));
  });
});

describe('node source: older nodes (Dogecoin 1.14, DigiByte 7.17)', () => {
  const doge = { id: 'node:doge', coin: 'DOGE', supplyEveryMs: 1_000 };

  it('gettxoutsetinfo: "none" refused with -1 (the help text) → asked without arguments, remembered', async () => {
    const { server, source } = await nodeSource(DOGE, doge);
    const s1 = await poll(source);
    expect(calls(server, 'gettxoutsetinfo')).toEqual([
      ['gettxoutsetinfo', ['none']],
      ['gettxoutsetinfo', []],
    ]);
    expect(s1.supply).toEqual([
      {
        asset: 'dogecoin',
        kind: 'circulating',
        value: Number(DOGE_TOTAL),
        source: 'node:doge',
        sourceKind: 'node',
        ts: NOW,
      },
    ]);
    expect(s1.errors).toBeUndefined();
    setClock(NOW + 1_000); // the next supply read is due
    const s2 = await poll(source);
    expect(calls(server, 'gettxoutsetinfo').slice(2)).toEqual([['gettxoutsetinfo', []]]);
    expect(s2.supply).toHaveLength(1);
  });

  it('getblockstats: a height refused (-8) → asked by hash, and by hash only from then on', async () => {
    const { server, source } = await nodeSource(DOGE, doge);
    const s1 = await poll(source);
    expect(calls(server, 'getblockstats')).toEqual([
      ['getblockstats', [5_400_000, ['subsidy']]],
      ['getblockstats', [DOGE_TIP, ['subsidy']]],
    ]);
    expect(s1.mining?.[0]).toMatchObject({
      asset: 'dogecoin',
      algorithm: 'scrypt',
      blockReward: 10_000, // 1,000,000,000,000 koinu
      difficulty: 28532845.51307196,
      networkHashps: 1523456789012345,
      blockTimeSeconds: (1795529760 - 1795529160) / 10,
      height: 5_400_000,
      tipTime: 1795529760 * 1000,
    });
    setDogeHeight(5_400_001);
    setClock(NOW + 60_000);
    const s2 = await poll(source);
    expect(calls(server, 'getblockstats').slice(2)).toEqual([['getblockstats', [DOGE_NEXT, ['subsidy']]]]);
    expect(s2.mining?.[0]).toMatchObject({ height: 5_400_001, blockReward: 10_000 });
  });

  it('getblockstats missing (-32601, Dogecoin < 1.14.7): blockReward null, never asked again', async () => {
    const { server, source } = await nodeSource(without(DOGE, 'getblockstats'), doge);
    const s1 = await poll(source);
    setDogeHeight(5_400_001);
    setClock(NOW + 60_000);
    const s2 = await poll(source);
    expect(calls(server, 'getblockstats')).toEqual([['getblockstats', [5_400_000, ['subsidy']]]]);
    expect([s1.mining?.[0], s2.mining?.[0]].map((m) => (m as { blockReward: unknown }).blockReward)).toEqual([
      null,
      null,
    ]);
    expect(s1.rejects).toBeUndefined();
    expect(validate(s1).reasons).toEqual([]);
  });

  it('getnetworkhashps missing (-32601): networkHashps null, never asked again', async () => {
    const { server, source } = await nodeSource(without(LTC, 'getnetworkhashps'));
    const s1 = await poll(source);
    setClock(NOW + 60_000);
    await poll(source);
    expect(calls(server, 'getnetworkhashps')).toHaveLength(1);
    expect(s1.mining?.[0]).toMatchObject({
      networkHashps: null,
      difficulty: 4.656542373906925e-10,
      height: 121,
    });
    expect(validate(s1).reasons).toEqual([]);
  });

  it('DigiByte: the configured algorithm from `difficulties` (no `difficulty`), no block spacing', async () => {
    const { server, source } = await nodeSource(DGB, { id: 'node:dgb', coin: 'DGB', algorithm: 'scrypt' });
    const s = await poll(source);
    expect(s.mining).toEqual([
      {
        asset: 'digibyte',
        algorithm: 'scrypt',
        difficulty: 1234.567890123456, // difficulties.scrypt, not another algorithm's
        blockReward: 277.3456789,
        blockTimeSeconds: null, // blocks of five algorithms interleave
        height: 20_500_000,
        networkHashps: 9876543210987.654,
        tipTime: 1795529745 * 1000,
        source: 'node:dgb',
        observedAt: NOW,
      },
    ]);
    const methods = calls(server).map(([m]) => m);
    expect(methods).not.toContain('getdifficulty');
    expect(methods).not.toContain('getblockhash');
    // total_amount 17654321098.76543210, as the nearest double
    expect(s.supply).toMatchObject([{ asset: 'digibyte', value: 17654321098.76543 }]);
    expect(validate(s).reasons).toEqual([]);
  });

  // A multi-algorithm coin without `algorithm`: `difficulties` has no entry for it, and DigiByte's getdifficulty is the
  // node's own mining algorithm's, which may be another: null, never a guess.
  it('DigiByte without a configured algorithm: no difficulty guessed from getdifficulty', async () => {
    const { server, source } = await nodeSource(
      { ...DGB, getdifficulty: 'dgb-getdifficulty.json' },
      { id: 'node:dgb', coin: 'DGB' },
    );
    const s = await poll(source);
    expect(calls(server, 'getdifficulty')).toEqual([]);
    expect(s.mining?.[0]).toMatchObject({ algorithm: 'multi-algo', difficulty: null });
  });

  it('reads a total_amount above 2^53 base units (Dogecoin) as a number, without throwing', async () => {
    expect(toUnits(DOGE_TOTAL)).toBeGreaterThan(2n ** 53n); // JSON.parse could not keep every digit
    const { source } = await nodeSource(DOGE, doge);
    const s = await poll(source);
    const value = (s.supply?.[0] as { value: unknown }).value;
    expect(typeof value).toBe('number');
    expect(value).toBe(Number(DOGE_TOTAL)); // the nearest double: 148312584727.8146
    const { prepared, reasons } = validate(s);
    expect(reasons).toEqual([]);
    expect(prepared.supply[0]?.value).toBe(value);
  });
});

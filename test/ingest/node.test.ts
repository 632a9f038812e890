/**
 * The coin-node source (`src/ingest/node/`) against recorded JSON-RPC answers served by a local `node:http` server
 * (`test/support/recorded-http.ts`): Litecoin Core 0.21 regtest captures, and Dogecoin 1.14 / DigiByte 7.17 bodies
 * built from their source (`test/fixtures/node/README.md` says which is which). No node is started here. Covered: the
 * figures of a poll and the calls that produce them, cookie auth, the fallbacks for older nodes, every way a whole
 * poll fails, absurd figures reaching validation, and the reserve balances (UTXO scan and wallet).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ASSETS } from '../../src/catalog/assets.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import { toUnits } from '../../src/ingest/exact-json.ts';
import { SourceError } from '../../src/ingest/http.ts';
import { RpcError } from '../../src/ingest/node/rpc.ts';
import { createNodeSource, NODE_DEFAULTS } from '../../src/ingest/node/source.ts';
import type { NodeSource, NodeSourceConfig } from '../../src/ingest/node/source.ts';
import { prepareSnapshot } from '../../src/ingest/pipeline.ts';
import type { SourceSnapshot } from '../../src/ingest/types.ts';
import { MarketService } from '../../src/market/service.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';
import { recordedFixtures, startRecordedServer } from '../support/recorded-http.ts';
import type { Recorded, RecordedRequest, RecordedServer } from '../support/recorded-http.ts';

const fixture = recordedFixtures(new URL('../fixtures/node/', import.meta.url));

/**
 * The recorded answer `name` to the request whose JSON-RPC id is `id` (Core echoes the request's id, so the recorded
 * one is replaced); `edit` changes the body in memory for one case, and each test that does so says why.
 */
function answer(name: string, id: unknown, edit: (body: string) => string = (b) => b): Recorded {
  const meta = fixture(name);
  const body = edit(meta.body);
  return {
    status: meta.status,
    headers: { 'content-type': meta.contentType, ...meta.headers },
    body: body.replace(/"id":\d+\}\n$/, `"id":${JSON.stringify(id)}}\n`),
  };
}

type Reply = string | Recorded | 'hang';
/** What the node answers, by method: a fixture name, a ready answer, or a function of the call's params and id. */
type Answers = Record<string, Reply | ((params: unknown[], id: unknown) => Reply)>;

/** A method not in `answers` gets Core's "Method not found" (HTTP 404), exactly as a node without it answers. */
const rpcRoute =
  (answers: Answers) =>
  (req: RecordedRequest): Recorded | 'hang' => {
    const { id, method, params } = JSON.parse(req.body) as { id: unknown; method: string; params: unknown[] };
    const a = answers[method];
    const r =
      a === undefined ? 'ltc-error-method-not-found.json' : typeof a === 'function' ? a(params, id) : a;
    return typeof r === 'string' && r !== 'hang' ? answer(r, id) : r;
  };

/** The `[method, params]` of every call the server saw, in arrival order. */
const calls = (s: RecordedServer, method?: string): [string, unknown[]][] =>
  s.requests
    .map((r) => JSON.parse(r.body) as { method: string; params: unknown[] })
    .filter((b) => method === undefined || b.method === method)
    .map((b) => [b.method, b.params]);
/** The calls of the poll itself (the supply read runs beside it, so its place in the order is not fixed). */
const pollCalls = (s: RecordedServer) => calls(s).filter(([m]) => m !== 'gettxoutsetinfo');

// Litecoin Core 0.21.2.1 regtest (test/fixtures/node/ltc-*.json).
const LTC_TIP = '1399212567c1cada63e0ebe2711e24b9388d1ca198635e6082f95fcad6de2ddc';
const LTC_OLD = '408d825bafa2c125330bba4a4ba94f143c3a23ba6942ed2633bfa34070333436';
const LTC_TIP_TIME = 1795529917; // block 121
const LTC_OLD_TIME = 1795528417; // block 111
const W = 'moS5h7dK5BMLgiMyhokqyEiHdjuMfTbQSZ'; // legacy: 0.1 + 0.2 LTC
const W2 = 'rltc1qjvvdg4gz8cxs6z786nsngaamewj3l8l7pzr9w4'; // bech32: 1.5 LTC

const LTC: Answers = {
  getblockchaininfo: 'ltc-getblockchaininfo-121.json',
  getblockheader: ([hash]) =>
    hash === LTC_TIP
      ? 'ltc-getblockheader-121.json'
      : hash === LTC_OLD
        ? 'ltc-getblockheader-111.json'
        : 'ltc-error-block-not-found.json',
  getblockhash: ([h]) => (h === 121 ? 'ltc-getblockhash-121.json' : 'ltc-getblockhash-111.json'),
  getnetworkhashps: 'ltc-getnetworkhashps.json',
  getblockstats: 'ltc-getblockstats-121-subsidy.json',
  gettxoutsetinfo: 'ltc-gettxoutsetinfo-none.json',
  getblockcount: 'ltc-getblockcount-121.json',
  validateaddress: ([a]) =>
    a === W
      ? 'ltc-validateaddress-legacy.json'
      : a === W2
        ? 'ltc-validateaddress-bech32.json'
        : 'ltc-validateaddress-mainnet-on-regtest.json',
  scantxoutset: 'ltc-scantxoutset.json',
  getaddressinfo: ([a]) =>
    a === W ? 'ltc-getaddressinfo-legacy-watchonly.json' : 'ltc-getaddressinfo-bech32-watchonly.json',
  listunspent: 'ltc-listunspent.json',
};
const without = (a: Answers, ...methods: string[]): Answers =>
  Object.fromEntries(Object.entries(a).filter(([m]) => !methods.includes(m)));

// Dogecoin 1.14 (derived from dogecoin/dogecoin src/rpc/*.cpp; test/fixtures/node/doge-*.json).
const DOGE_TIP = 'f1b2c6d3e1f3a0c5d8e2b4a6978c5d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c';
const DOGE_OLD = '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b';
/** A second tip, for polls at the next height (the tip's header is answered for it). */
const DOGE_NEXT = 'aa'.repeat(32);
const DOGE_TOTAL = '148312584727.81457216';
const D1 = 'DTaXouBvXCDfViRZzSCaVNQBAyt1D9zThT'; // watch-only: 0.1 + 28,394,756,201.12345679 DOGE
const D2 = 'DB1Y8APJPE9K1kfYeuGPcbtyK7uruTNFa9'; // not in the wallet

let dogeHeight = 5_400_000;
const DOGE: Answers = {
  // The next height is the recorded answer with `blocks` and `bestblockhash` moved on (edited in memory).
  getblockchaininfo: (_p, id) =>
    answer('doge-getblockchaininfo.json', id, (b) =>
      dogeHeight === 5_400_000
        ? b
        : b.replace('"blocks":5400000', `"blocks":${dogeHeight}`).replace(DOGE_TIP, DOGE_NEXT),
    ),
  getblockheader: ([hash]) =>
    hash === DOGE_TIP || hash === DOGE_NEXT
      ? 'doge-getblockheader-5400000.json'
      : hash === DOGE_OLD
        ? 'doge-getblockheader-5399990.json'
        : 'ltc-error-block-not-found.json',
  getblockhash: ([h]) =>
    h === 5_400_000 ? 'doge-getblockhash-5400000.json' : 'doge-getblockhash-5399990.json',
  getnetworkhashps: 'doge-getnetworkhashps.json',
  // 1.14 takes no argument: any makes it throw its help text, which Core 0.14's RPC table turns into -1.
  gettxoutsetinfo: (p) =>
    p.length > 0 ? 'doge-error-gettxoutsetinfo-params.json' : 'doge-gettxoutsetinfo.json',
  // 1.14.7 takes a hash only: a height fails ParseHashV with -8.
  getblockstats: ([b]) =>
    typeof b === 'number' ? 'doge-error-getblockstats-height.json' : 'doge-getblockstats-subsidy.json',
  getblockcount: 'doge-getblockcount-5400000.json',
  validateaddress: ([a]) =>
    a === D1 ? 'doge-validateaddress-watchonly.json' : 'doge-validateaddress-not-watched.json',
  listunspent: 'doge-listunspent.json',
};

// DigiByte 7.17.3 (derived from DigiByte-Core/digibyte@v7.17.3; test/fixtures/node/dgb-*.json).
const DGB: Answers = {
  getblockchaininfo: 'dgb-getblockchaininfo.json',
  getblockheader: 'dgb-getblockheader-20500000.json',
  getnetworkhashps: 'dgb-getnetworkhashps.json',
  getblockstats: 'dgb-getblockstats-subsidy.json',
  gettxoutsetinfo: (p) =>
    p.length > 0 ? 'dgb-error-gettxoutsetinfo-params.json' : 'dgb-gettxoutsetinfo.json',
};

const NOW = LTC_TIP_TIME * 1000 + 60_000;
let clock = NOW;
let dir: string;
let cookieFile: string;
const COOKIE_1 = `__cookie__:${'1f'.repeat(32)}`;
const COOKIE_2 = `__cookie__:${'e2'.repeat(32)}`;
const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cw-node-test-'));
  cookieFile = join(dir, '.cookie');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open: { close(): Promise<void> }[] = [];
beforeEach(() => {
  clock = NOW;
  dogeHeight = 5_400_000;
  writeFileSync(cookieFile, `${COOKIE_1}\n`);
});
afterEach(async () => {
  // Sources first (their background supply read is aborted and awaited), then the servers.
  for (const x of open.splice(0).reverse()) await x.close();
  vi.restoreAllMocks();
});

/** A node source on a fresh recorded server; closed after the test. */
async function nodeSource(
  answers: Answers,
  cfg: Partial<NodeSourceConfig> = {},
): Promise<{ server: RecordedServer; source: NodeSource }> {
  const server = await startRecordedServer(rpcRoute(answers));
  open.push(server);
  const source = createNodeSource(
    {
      ...NODE_DEFAULTS,
      id: 'node:ltc',
      coin: 'LTC',
      url: `${server.url}/`,
      cookieFile,
      blockTimeWindow: 10,
      ...cfg,
    },
    { now: () => clock },
  );
  open.push({ close: async () => source.close?.() });
  return { server, source };
}

async function poll(source: NodeSource): Promise<SourceSnapshot> {
  const s = await source.poll(new AbortController().signal);
  if (!s) throw new Error('a node source never ends');
  return s;
}

/** The error a promise rejects with; fails the test if it resolves or rejects with anything but a SourceError. */
async function failure(p: Promise<unknown>): Promise<SourceError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SourceError);
  return err as SourceError;
}

const KNOWN = new Set(ASSETS.map((a) => a.id));
/** Validates a snapshot as ingestion does, counting every reject by reason. */
function validate(s: SourceSnapshot) {
  const reasons: string[] = [];
  const prepared = prepareSnapshot(s, KNOWN, (reason) => reasons.push(reason), clock);
  if (!prepared) throw new Error('snapshot rejected whole');
  return { prepared, reasons };
}

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
    clock = NOW + 60_000;
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
    clock = NOW + 1_000;
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
    clock = NOW + 60_000;
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
    clock = NOW + 1_000; // the next supply read is due
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
    dogeHeight = 5_400_001;
    clock = NOW + 60_000;
    const s2 = await poll(source);
    expect(calls(server, 'getblockstats').slice(2)).toEqual([['getblockstats', [DOGE_NEXT, ['subsidy']]]]);
    expect(s2.mining?.[0]).toMatchObject({ height: 5_400_001, blockReward: 10_000 });
  });

  it('getblockstats missing (-32601, Dogecoin < 1.14.7): blockReward null, never asked again', async () => {
    const { server, source } = await nodeSource(without(DOGE, 'getblockstats'), doge);
    const s1 = await poll(source);
    dogeHeight = 5_400_001;
    clock = NOW + 60_000;
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
    clock = NOW + 60_000;
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

describe('node source: a poll that fails as a whole rejects with a reason', () => {
  const everything = (reply: Reply): Answers =>
    new Proxy({}, { get: () => reply, has: () => true }) as Answers;

  it('HTTP 401 (wrong credentials) → auth_failed', async () => {
    const { source } = await nodeSource(everything('ltc-error-unauthorized.txt'));
    const err = await failure(poll(source));
    expect(err.reason).toBe('auth_failed');
    expect(err.message).toMatch(/HTTP 401, the RPC credentials are wrong/);
  });

  it('warming up (-28, HTTP 500) → rpc_error naming the code', async () => {
    const { source } = await nodeSource(everything('ltc-error-warmup.json'));
    const err = await failure(poll(source));
    expect(err.reason).toBe('rpc_error');
    expect(err.message).toBe('getblockchaininfo: RPC error -28: Loading block index...');
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).code).toBe(-28);
  });

  it('an HTML error page with HTTP 502 (a proxy) → http_error showing the start of the page', async () => {
    // nginx's default 502 page (ngx_http_special_response.c), not a node's answer.
    const html =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    const { source } = await nodeSource(
      everything({ status: 502, headers: { 'content-type': 'text/html' }, body: html }),
    );
    const err = await failure(poll(source));
    expect(err.reason).toBe('http_error');
    expect(err.message).toContain(
      'getblockchaininfo: HTTP 502, not JSON-RPC: "<html> <head><title>502 Bad Gateway',
    );
  });

  it('a truncated body (Content-Length larger than what is sent, then the connection closes) → unreachable', async () => {
    const full = answer('ltc-getblockchaininfo-121.json', 1);
    const { source } = await nodeSource({
      ...LTC,
      getblockchaininfo: {
        ...full,
        headers: {
          ...full.headers,
          'content-length': String(Buffer.byteLength(full.body)),
          connection: 'close',
        },
        body: full.body.slice(0, 100),
      },
    });
    const err = await failure(poll(source));
    expect(err.reason).toBe('unreachable');
  });

  it('a node that never answers → timeout after timeoutMs', async () => {
    const { source } = await nodeSource(everything('hang'), { timeoutMs: 150 });
    const t0 = performance.now();
    const err = await failure(poll(source));
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(err.reason).toBe('timeout');
    expect(err.message).toMatch(/no complete answer within 150 ms/);
  });

  it('a node in initial block download → bad_response "syncing", nothing else asked', async () => {
    const { server, source } = await nodeSource({
      ...LTC,
      getblockchaininfo: 'ltc-getblockchaininfo-ibd.json',
    });
    const err = await failure(poll(source));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toMatch(/syncing/);
    expect(pollCalls(server)).toEqual([['getblockchaininfo', []]]);
  });

  it('a missing cookie file (node stopped) → auth_failed naming the file, no request sent', async () => {
    const missing = join(dir, 'regtest', '.cookie');
    const { server, source } = await nodeSource(LTC, { cookieFile: missing });
    const err = await failure(poll(source));
    expect(err.reason).toBe('auth_failed');
    expect(err.message).toContain(`cannot read the cookie file ${missing} (ENOENT)`);
    await source.close?.();
    expect(server.requests).toHaveLength(0);
  });
});

describe('node source: absurd figures reach validation and are rejected by reason', () => {
  /** The LTC node with gettxoutsetinfo's total_amount replaced (in memory) by `total`. */
  const withTotal = (total: string): Answers => ({
    ...LTC,
    gettxoutsetinfo: (_p, id) =>
      answer('ltc-gettxoutsetinfo-none.json', id, (b) => b.replace('6050.00000000', total)),
  });

  it('a negative supply', async () => {
    const { source } = await nodeSource(withTotal('-1.00000000'));
    const { prepared, reasons } = validate(await poll(source));
    expect(reasons).toEqual(['supply.value: must be a finite number >= 0']);
    expect(prepared.supply).toEqual([]);
    expect(prepared.mining).toHaveLength(1); // the rest of the poll still counts
  });

  it("a supply one litoshi above Litecoin's 84,000,000 cap (and the cap itself passes)", async () => {
    const { source } = await nodeSource(withTotal('84000000.00000001'));
    expect(validate(await poll(source)).reasons).toEqual([
      "supply.value: must not exceed the protocol's max supply of 84000000",
    ]);
    const ok = await nodeSource(withTotal('84000000.00000000'));
    expect(validate(await poll(ok.source)).prepared.supply).toMatchObject([{ value: 84_000_000 }]);
  });

  it.each(['0', '-4.656542373906925e-10'])('a difficulty of %s', async (d) => {
    const { source } = await nodeSource({
      ...LTC,
      getblockchaininfo: (_p, id) =>
        answer('ltc-getblockchaininfo-121.json', id, (b) =>
          b.replace('"difficulty":4.656542373906925e-10', `"difficulty":${d}`),
        ),
    });
    const { prepared, reasons } = validate(await poll(source));
    expect(reasons).toEqual(['mining.difficulty: must be null or a finite number > 0']);
    expect(prepared.mining).toEqual([]);
  });

  it('a subsidy that is not an integer of base units: the adapter rejects it, the record keeps a null reward', async () => {
    const { source } = await nodeSource({
      ...LTC,
      getblockstats: (_p, id) =>
        answer('ltc-getblockstats-121-subsidy.json', id, (b) => b.replace('5000000000', '5000000000.5')),
    });
    const s = await poll(source);
    expect(s.rejects).toEqual([
      { reason: 'node.subsidy: must be an integer of base units', record: 5000000000.5 },
    ]);
    const { prepared, reasons } = validate(s);
    expect(reasons).toEqual(['node.subsidy: must be an integer of base units']);
    expect(prepared.rejected).toBe(1);
    expect(prepared.mining).toMatchObject([{ height: 121, blockReward: null }]);
  });

  describe('through MarketService', () => {
    // One in-memory PGlite for the block: starting one takes seconds, and this test only appends to it.
    let db: Db;
    beforeAll(async () => {
      db = await openDb({});
    });
    afterAll(async () => {
      await db.close();
    });
    const ENGINE: EngineConfig = {
      assets: ASSETS.filter((a) => a.id === 'litecoin'),
      currencies: [{ code: 'usd', name: 'US Dollar', kind: 'fiat' }],
      categories: [],
      quoteAssets: new Map(),
    };

    it('a height going backwards between two polls is rejected, the earlier figures stay', async () => {
      let blocks = 121;
      const { source } = await nodeSource({
        ...LTC,
        // The second answer says 120 blocks: the recorded body with `blocks` lowered in memory.
        getblockchaininfo: (_p, id) =>
          answer('ltc-getblockchaininfo-121.json', id, (b) =>
            b.replace('"blocks":121', `"blocks":${blocks}`),
          ),
      });
      const m = new MarketService({ db, engine: ENGINE, now: () => clock });
      const s1 = await poll(source);
      await m.ingest([{ source: 'node:ltc', snapshot: s1, error: null, ms: 5 }]);
      expect(m.rejects.total).toBe(0);
      blocks = 120;
      clock = NOW + 60_000;
      const s2 = await poll(source);
      expect(s2.mining?.[0]).toMatchObject({ height: 120 });
      await m.ingest([{ source: 'node:ltc', snapshot: s2, error: null, ms: 5 }]);
      expect(m.rejects.byReason()).toEqual({ 'mining.height: must not go backwards': 1 });
      expect(m.rejects.examples()[0]?.sample).toContain('"previousHeight":121');
      expect((await m.readMining(['litecoin'])).get('litecoin')).toMatchObject({
        height: 121,
        observedAt: NOW,
      });
    });
  });
});

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

  it('an address the node says is invalid (a mainnet address on regtest) → an error, nothing scanned', async () => {
    const mainnet = 'LQTpS3VaYTjCr4s9Y1t5zbeY26zevf7Fb3';
    const { server, source } = await nodeSource(LTC);
    const err = await failure(source.balances([W, mainnet]));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toBe(`${mainnet} is not a valid address on the network of ${server.url}/`);
    expect(calls(server, 'scantxoutset')).toEqual([]);
  });
});

/**
 * Shared by the coin-node source tests (`test/ingest/node*.test.ts`): the recorded JSON-RPC answers of Litecoin Core
 * 0.21, Dogecoin 1.14 and DigiByte 7.17 (`test/fixtures/node/`, see its README) served by a local `node:http` server,
 * a node source on such a server, the clock and cookie file it reads, and the helpers the tests assert with.
 * Importers see `clock`, `dogeHeight`, `dir` and `cookieFile` live; they change the first two with the setters.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { ASSETS } from '../../../src/catalog/assets.ts';
import { SourceError } from '../../../src/ingest/http.ts';
import { createNodeSource, NODE_DEFAULTS } from '../../../src/ingest/node/source.ts';
import type { NodeSource, NodeSourceConfig } from '../../../src/ingest/node/source.ts';
import { prepareSnapshot } from '../../../src/ingest/pipeline.ts';
import type { SourceSnapshot } from '../../../src/ingest/types.ts';
import { recordedFixtures, startRecordedServer } from '../../support/recorded-http.ts';
import type { Recorded, RecordedRequest, RecordedServer } from '../../support/recorded-http.ts';

const fixture = recordedFixtures(new URL('../../fixtures/node/', import.meta.url));

/**
 * The recorded answer `name` to the request whose JSON-RPC id is `id` (Core echoes the request's id, so the recorded
 * one is replaced); `edit` changes the body in memory for one case, and each test that does so says why.
 */
export function answer(name: string, id: unknown, edit: (body: string) => string = (b) => b): Recorded {
  const meta = fixture(name);
  const body = edit(meta.body);
  return {
    status: meta.status,
    headers: { 'content-type': meta.contentType, ...meta.headers },
    body: body.replace(/"id":\d+\}\n$/, `"id":${JSON.stringify(id)}}\n`),
  };
}

export type Reply = string | Recorded | 'hang';
/** What the node answers, by method: a fixture name, a ready answer, or a function of the call's params and id. */
export type Answers = Record<string, Reply | ((params: unknown[], id: unknown) => Reply)>;

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
export const calls = (s: RecordedServer, method?: string): [string, unknown[]][] =>
  s.requests
    .map((r) => JSON.parse(r.body) as { method: string; params: unknown[] })
    .filter((b) => method === undefined || b.method === method)
    .map((b) => [b.method, b.params]);
/** The calls of the poll itself (the supply read runs beside it, so its place in the order is not fixed). */
export const pollCalls = (s: RecordedServer) => calls(s).filter(([m]) => m !== 'gettxoutsetinfo');

// Litecoin Core 0.21.2.1 regtest (test/fixtures/node/ltc-*.json).
export const LTC_TIP = '1399212567c1cada63e0ebe2711e24b9388d1ca198635e6082f95fcad6de2ddc';
export const LTC_OLD = '408d825bafa2c125330bba4a4ba94f143c3a23ba6942ed2633bfa34070333436';
export const LTC_TIP_TIME = 1795529917; // block 121
export const LTC_OLD_TIME = 1795528417; // block 111
export const W = 'moS5h7dK5BMLgiMyhokqyEiHdjuMfTbQSZ'; // legacy: 0.1 + 0.2 LTC
export const W2 = 'rltc1qjvvdg4gz8cxs6z786nsngaamewj3l8l7pzr9w4'; // bech32: 1.5 LTC

export const LTC: Answers = {
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
export const without = (a: Answers, ...methods: string[]): Answers =>
  Object.fromEntries(Object.entries(a).filter(([m]) => !methods.includes(m)));

// Dogecoin 1.14 (derived from dogecoin/dogecoin src/rpc/*.cpp; test/fixtures/node/doge-*.json).
export const DOGE_TIP = 'f1b2c6d3e1f3a0c5d8e2b4a6978c5d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c';
export const DOGE_OLD = '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b';
/** A second tip, for polls at the next height (the tip's header is answered for it). */
export const DOGE_NEXT = 'aa'.repeat(32);
export const DOGE_TOTAL = '148312584727.81457216';
export const D1 = 'DTaXouBvXCDfViRZzSCaVNQBAyt1D9zThT'; // watch-only: 0.1 + 28,394,756,201.12345679 DOGE
export const D2 = 'DB1Y8APJPE9K1kfYeuGPcbtyK7uruTNFa9'; // not in the wallet

export let dogeHeight = 5_400_000;
/** Moves the DOGE node to another height (reset to 5,400,000 before each test). */
export const setDogeHeight = (h: number): void => {
  dogeHeight = h;
};
export const DOGE: Answers = {
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
export const DGB: Answers = {
  getblockchaininfo: 'dgb-getblockchaininfo.json',
  getblockheader: 'dgb-getblockheader-20500000.json',
  getnetworkhashps: 'dgb-getnetworkhashps.json',
  getblockstats: 'dgb-getblockstats-subsidy.json',
  gettxoutsetinfo: (p) =>
    p.length > 0 ? 'dgb-error-gettxoutsetinfo-params.json' : 'dgb-gettxoutsetinfo.json',
};

export const NOW = LTC_TIP_TIME * 1000 + 60_000;
export let clock = NOW;
/** Sets the sources' clock (reset to NOW before each test). */
export const setClock = (t: number): void => {
  clock = t;
};
export let dir: string;
export let cookieFile: string;
export const COOKIE_1 = `__cookie__:${'1f'.repeat(32)}`;
export const COOKIE_2 = `__cookie__:${'e2'.repeat(32)}`;
export const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

const open: { close(): Promise<void> }[] = [];

/**
 * A test file's hooks: a temporary directory for the cookie file, a fresh clock and cookie before each test, and every
 * source and server a test opened closed after it. Call once, at the top of the file.
 */
export function useNodeSources(): void {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cw-node-test-'));
    cookieFile = join(dir, '.cookie');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
}

/** A node source on a fresh recorded server; closed after the test. */
export async function nodeSource(
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

export async function poll(source: NodeSource): Promise<SourceSnapshot> {
  const s = await source.poll(new AbortController().signal);
  if (!s) throw new Error('a node source never ends');
  return s;
}

/** The error a promise rejects with; fails the test if it resolves or rejects with anything but a SourceError. */
export async function failure(p: Promise<unknown>): Promise<SourceError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SourceError);
  return err as SourceError;
}

const KNOWN = new Set(ASSETS.map((a) => a.id));
/** Validates a snapshot as ingestion does, counting every reject by reason. */
export function validate(s: SourceSnapshot) {
  const reasons: string[] = [];
  const prepared = prepareSnapshot(s, KNOWN, (reason) => reasons.push(reason), clock);
  if (!prepared) throw new Error('snapshot rejected whole');
  return { prepared, reasons };
}

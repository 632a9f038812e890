/**
 * Per-source health (`src/market/source-health.ts`): failures counted by reason, `partial` snapshots, recovery,
 * a failing source logged at most once a minute with the count kept quiet, the newest delivered record time; then
 * through `MarketService.tick()` with two coin-node sources replaying recorded JSON-RPC answers
 * (`test/fixtures/node/`): one refused (HTTP 401), one healthy whose records are ingested all the same.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/catalog/assets.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import { createNodeSource, NODE_DEFAULTS } from '../../src/ingest/node/source.ts';
import type { PollOutcome, PreparedSnapshot } from '../../src/ingest/pipeline.ts';
import type { FxRate, MiningRecord, SourceSnapshot, SupplyRecord, Ticker } from '../../src/ingest/types.ts';
import { MarketService } from '../../src/market/service.ts';
import { LOG_EVERY_MS, SourceHealthBook } from '../../src/market/source-health.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { startRecordedServer } from '../support/recorded-http.ts';
import type { Recorded, RecordedRequest } from '../support/recorded-http.ts';

type Warn = { msg: string; data: Record<string, unknown> | undefined };
function logger() {
  const warns: Warn[] = [];
  return {
    warns,
    log: { warn: (msg: string, data?: Record<string, unknown>) => void warns.push({ msg, data }) },
  };
}

const T0 = Date.UTC(2026, 10, 24, 12);
const failed = (source: string, error: string, reason?: string, ms = 12.4): PollOutcome => ({
  source,
  snapshot: null,
  error,
  ...(reason === undefined ? {} : { reason }),
  ms,
});
const answered = (source: string, ts: number, errors?: SourceSnapshot['errors']): PollOutcome => ({
  source,
  snapshot: { source, ts, tickers: [], ...(errors ? { errors } : {}) },
  error: null,
  ms: 3,
});

describe('SourceHealthBook', () => {
  it('lists the configured sources with their kind and what they feed, before any poll', () => {
    const { log } = logger();
    const book = new SourceHealthBook(log, [
      { id: 'node:ltc', kind: 'node', supplies: ['supply', 'mining', 'balances'], poll: async () => null },
      { id: 'ccxt:kraken', kind: 'ccxt', poll: async () => null },
    ]);
    expect(Object.fromEntries(book.entries)).toEqual({
      'node:ltc': {
        kind: 'node',
        supplies: ['supply', 'mining', 'balances'],
        lastPollAt: null,
        lastSnapshotTs: null,
        dataAsOf: null,
        lastError: null,
        lastReason: null,
        lastMs: null,
        failures: {},
      },
      'ccxt:kraken': expect.objectContaining({ kind: 'ccxt', supplies: ['tickers'] }),
    });
  });

  it('counts failed polls by reason and keeps the last error ("failed" when no reason is given)', () => {
    const { log } = logger();
    const book = new SourceHealthBook(log);
    book.record(failed('node:ltc', 'no complete answer within 10000 ms', 'timeout'), T0);
    book.record(failed('node:ltc', 'HTTP 401, the RPC credentials are wrong', 'auth_failed'), T0 + 1_000);
    book.record(failed('node:ltc', 'no complete answer within 10000 ms', 'timeout'), T0 + 2_000);
    book.record(failed('node:ltc', 'boom'), T0 + 3_000);
    expect(book.entries.get('node:ltc')).toMatchObject({
      kind: null, // seen only in outcomes, never configured
      failures: { timeout: 2, auth_failed: 1, failed: 1 },
      lastError: 'boom',
      lastReason: 'failed',
      lastPollAt: T0 + 3_000,
      lastMs: 12,
      lastSnapshotTs: null,
      dataAsOf: null,
    });
  });

  it('a snapshot with failed parts is `partial`; each part is counted by its own reason', () => {
    const { log } = logger();
    const book = new SourceHealthBook(log);
    book.record(
      answered('node:ltc', T0, [
        { source: 'node:ltc:supply', message: 'no complete answer within 600000 ms', reason: 'timeout' },
        { source: 'ccxt:kraken:XLTCZUSD', message: 'bad symbol' },
      ]),
      T0 + 5,
    );
    expect(book.entries.get('node:ltc')).toMatchObject({
      lastReason: 'partial',
      lastError: 'node:ltc:supply: no complete answer within 600000 ms; ccxt:kraken:XLTCZUSD: bad symbol',
      failures: { timeout: 1, partial: 1 },
      lastSnapshotTs: T0,
      lastPollAt: T0 + 5,
    });
  });

  it('a whole answer clears lastError and lastReason; the counts since start stay', () => {
    const { log } = logger();
    const book = new SourceHealthBook(log);
    book.record(failed('node:ltc', 'HTTP 401', 'auth_failed'), T0);
    book.record(answered('node:ltc', T0 + 60_000), T0 + 60_000);
    expect(book.entries.get('node:ltc')).toMatchObject({
      lastError: null,
      lastReason: null,
      failures: { auth_failed: 1 },
      lastSnapshotTs: T0 + 60_000,
    });
  });

  it('logs a failing source at most once a minute, then says how many failures it kept quiet', () => {
    const { log, warns } = logger();
    const book = new SourceHealthBook(log);
    const at = (t: number, o: PollOutcome) => book.record(o, T0 + t);
    at(0, failed('node:ltc', 'e0', 'timeout'));
    at(10_000, failed('node:ltc', 'e1', 'timeout'));
    at(10_000, failed('node:doge', 'd1', 'auth_failed')); // another source has its own minute
    at(
      20_000,
      answered('node:ltc', T0 + 20_000, [{ source: 'node:ltc:supply', message: 'p', reason: 'rpc_error' }]),
    );
    at(30_000, answered('node:ltc', T0 + 30_000)); // a success logs nothing and resets nothing
    at(LOG_EVERY_MS - 1, failed('node:ltc', 'e2', 'timeout'));
    at(LOG_EVERY_MS, failed('node:ltc', 'e3', 'unreachable'));
    at(LOG_EVERY_MS + 1_000, failed('node:ltc', 'e4', 'timeout'));
    at(LOG_EVERY_MS * 3, failed('node:ltc', 'e5', 'timeout'));
    at(LOG_EVERY_MS * 5, failed('node:ltc', 'e6', 'timeout'));
    expect(LOG_EVERY_MS).toBe(60_000);
    expect(warns).toEqual([
      { msg: 'source failed', data: { source: 'node:ltc', reason: 'timeout', error: 'e0' } },
      { msg: 'source failed', data: { source: 'node:doge', reason: 'auth_failed', error: 'd1' } },
      // e1, the supply part at 20 s and e2 were kept quiet
      {
        msg: 'source failed',
        data: { source: 'node:ltc', reason: 'unreachable', error: 'e3', suppressedSinceLastLog: 3 },
      },
      {
        msg: 'source failed',
        data: { source: 'node:ltc', reason: 'timeout', error: 'e5', suppressedSinceLastLog: 1 },
      },
      { msg: 'source failed', data: { source: 'node:ltc', reason: 'timeout', error: 'e6' } },
    ]);
    // Quiet or not, every failure is counted.
    expect(book.entries.get('node:ltc')?.failures).toEqual({ timeout: 6, unreachable: 1, rpc_error: 1 });
  });

  it('delivered keeps the time of the newest record, whatever its kind and order', () => {
    const { log } = logger();
    const book = new SourceHealthBook(log);
    const ticker = (ts: number): Ticker => ({
      venue: 'kraken',
      venueKind: 'cex',
      base: 'litecoin',
      quote: 'usd',
      last: 90,
      bid: null,
      ask: null,
      baseVolume: 1,
      ts,
    });
    const supply = (ts: number): SupplyRecord => ({
      asset: 'litecoin',
      kind: 'circulating',
      value: 6050,
      source: 'node:ltc',
      sourceKind: 'node',
      ts,
    });
    const fx = (ts: number): FxRate => ({ currency: 'eur', usdPerUnit: 1.08, ts, source: 'ecb' });
    const mining = (observedAt: number): MiningRecord => ({
      asset: 'litecoin',
      algorithm: 'scrypt',
      difficulty: 1,
      blockReward: 6.25,
      blockTimeSeconds: 150,
      height: 1,
      networkHashps: null,
      tipTime: null,
      source: 'node:ltc',
      observedAt,
    });
    const parts = (p: Partial<Pick<PreparedSnapshot, 'tickers' | 'supply' | 'fx' | 'mining'>>) => ({
      tickers: [],
      supply: [],
      fx: [],
      mining: [],
      ...p,
    });
    const asOf = () => book.entries.get('s')?.dataAsOf;
    book.delivered('s', parts({}));
    expect(asOf()).toBeNull();
    book.delivered(
      's',
      parts({ tickers: [ticker(T0 + 5), ticker(T0 + 1)], supply: [supply(T0 + 9)], fx: [fx(T0)] }),
    );
    expect(asOf()).toBe(T0 + 9);
    book.delivered('s', parts({ tickers: [ticker(T0 + 3)] })); // older: kept as it was
    expect(asOf()).toBe(T0 + 9);
    book.delivered('s', parts({ mining: [mining(T0 + 20)] }));
    expect(asOf()).toBe(T0 + 20);
    book.delivered('s', parts({ fx: [fx(T0 + 21)] }));
    expect(asOf()).toBe(T0 + 21);
  });
});

// --- Through MarketService, with two coin-node sources on recorded JSON-RPC answers ---------------------------

const DIR = new URL('../fixtures/node/', import.meta.url);
const MANIFEST = JSON.parse(readFileSync(new URL('responses.json', DIR), 'utf8')) as Record<
  string,
  { status: number; contentType: string; headers?: Record<string, string> }
>;
/** The recorded answer `name` to a call with JSON-RPC id `id` (Core echoes the request's id). */
function answer(name: string, id: unknown): Recorded {
  const meta = MANIFEST[name];
  if (!meta) throw new Error(`${name} is not in responses.json`);
  return {
    status: meta.status,
    headers: { 'content-type': meta.contentType, ...meta.headers },
    body: readFileSync(new URL(name, DIR), 'utf8').replace(/"id":\d+\}\n$/, `"id":${JSON.stringify(id)}}\n`),
  };
}
const LTC_TIP = '1399212567c1cada63e0ebe2711e24b9388d1ca198635e6082f95fcad6de2ddc';
/** Litecoin Core 0.21 regtest recordings, by method. */
const LTC_NODE = (req: RecordedRequest): Recorded => {
  const { id, method, params } = JSON.parse(req.body) as { id: unknown; method: string; params: unknown[] };
  const byMethod: Record<string, string> = {
    getblockchaininfo: 'ltc-getblockchaininfo-121.json',
    getblockheader: params[0] === LTC_TIP ? 'ltc-getblockheader-121.json' : 'ltc-getblockheader-111.json',
    getblockhash: 'ltc-getblockhash-111.json',
    getnetworkhashps: 'ltc-getnetworkhashps.json',
    getblockstats: 'ltc-getblockstats-121-subsidy.json',
    gettxoutsetinfo: 'ltc-gettxoutsetinfo-none.json',
  };
  return answer(byMethod[method] ?? 'ltc-error-method-not-found.json', id);
};
/** A node refusing the credentials: Core's 401 (empty body, `WWW-Authenticate`) to every call. */
const REFUSING_NODE = (req: RecordedRequest): Recorded =>
  answer('ltc-error-unauthorized.txt', (JSON.parse(req.body) as { id: unknown }).id);

describe('source health through MarketService', () => {
  const NOW = 1795529917 * 1000 + 60_000; // a minute after the recorded Litecoin tip
  let clock = NOW;
  let db: Db;
  let tmp: string;
  beforeAll(async () => {
    db = await openMemoryDb();
    tmp = mkdtempSync(join(tmpdir(), 'cw-health-'));
    writeFileSync(join(tmp, '.cookie'), `__cookie__:${'ab'.repeat(32)}\n`);
  });
  afterAll(async () => {
    await db.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('one node refused (401) while another delivers: the other is ingested, health shows both', async () => {
    const good = await startRecordedServer(LTC_NODE);
    const bad = await startRecordedServer(REFUSING_NODE);
    const node = (id: string, coin: string, url: string) =>
      createNodeSource(
        { ...NODE_DEFAULTS, id, coin, url: `${url}/`, cookieFile: join(tmp, '.cookie'), blockTimeWindow: 10 },
        { now: () => clock },
      );
    const sources = [node('node:doge', 'DOGE', bad.url), node('node:ltc', 'LTC', good.url)];
    const { log, warns } = logger();
    const engine: EngineConfig = {
      assets: ASSETS.filter((a) => a.id === 'litecoin' || a.id === 'dogecoin'),
      currencies: [{ code: 'usd', name: 'US Dollar', kind: 'fiat' }],
      categories: [],
      quoteAssets: new Map(),
    };
    const m = new MarketService({
      db,
      engine,
      sources,
      now: () => clock,
      log: { info() {}, error() {}, ...log },
    });
    try {
      await m.tick();
      expect(m.sources.get('node:doge')).toMatchObject({
        kind: 'node',
        supplies: ['supply', 'mining', 'balances'],
        lastPollAt: NOW,
        lastReason: 'auth_failed',
        lastError: expect.stringMatching(/HTTP 401, the RPC credentials are wrong/),
        failures: { auth_failed: 1 },
        lastSnapshotTs: null,
        dataAsOf: null,
      });
      expect(m.sources.get('node:ltc')).toMatchObject({
        kind: 'node',
        lastPollAt: NOW,
        lastError: null,
        lastReason: null,
        failures: {},
        lastSnapshotTs: NOW,
        dataAsOf: NOW,
      });
      // The healthy node's records went in despite the other's failure.
      expect((await m.readMining(['litecoin', 'dogecoin'])).get('litecoin')).toMatchObject({
        source: 'node:ltc',
        height: 121,
        blockReward: 50,
        blockTimeSeconds: 150,
      });
      expect((await m.readMining(['dogecoin'])).size).toBe(0);
      expect(m.state.supplyOf('litecoin')).toMatchObject([
        { source: 'node:ltc', value: 6050, sourceKind: 'node' },
      ]);
      expect(m.rejects.total).toBe(0);
      expect(warns).toEqual([
        {
          msg: 'source failed',
          data: { source: 'node:doge', reason: 'auth_failed', error: expect.stringMatching(/HTTP 401/) },
        },
      ]);

      // Still refused 30 s later: counted, not logged; a minute after the first log, logged with the quiet count.
      clock = NOW + 30_000;
      await m.tick();
      clock = NOW + 60_000;
      await m.tick();
      expect(m.sources.get('node:doge')?.failures).toEqual({ auth_failed: 3 });
      expect(m.sources.get('node:ltc')).toMatchObject({
        lastError: null,
        failures: {},
        dataAsOf: NOW + 60_000,
      });
      expect(warns.map((w) => w.data?.['suppressedSinceLastLog'])).toEqual([undefined, 1]);
    } finally {
      await m.stop(); // closes the sources
      await good.close();
      await bad.close();
    }
  });
});

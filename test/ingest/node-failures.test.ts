/**
 * The coin-node source (`src/ingest/node/`) against recorded JSON-RPC answers (`support/node.ts`): every way a whole
 * poll fails, and absurd figures reaching validation (on their own and through MarketService).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/catalog/assets.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import { RpcError } from '../../src/ingest/node/rpc.ts';
import { MarketService } from '../../src/market/service.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import {
  answer,
  clock,
  dir,
  failure,
  LTC,
  nodeSource,
  NOW,
  poll,
  pollCalls,
  setClock,
  useNodeSources,
  validate,
} from './support/node.ts';
import type { Answers, Reply } from './support/node.ts';

useNodeSources();

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
      db = await openMemoryDb();
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
      setClock(NOW + 60_000);
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

/**
 * Outages are answered as outages (issue 32, item 2): the product on a PostgreSQL server of its own, which is shut
 * down (`pg_ctl stop -m fast`) for 10 s while requests keep coming, then started again. During the outage everything
 * that needs the store is 503 `STORE_UNAVAILABLE` with `Retry-After` on REST and that code in the graph, beside the
 * data the other subgraphs answered; `/readyz` is 503; a key this process has not looked up yet is 503, never 401 or
 * 500; what needs no store (the price API under a key seen before) goes on. Afterwards everything works again,
 * without restarting the product. One product process on the scale-out's stores (PostgreSQL and Redis); a private
 * cluster, as the run's shared one may be a server the tests do not own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { generateKey } from '../../src/access/secrets.ts';
import { startTempPostgres } from '../support/postgres.ts';
import type { TempPostgres } from '../support/postgres.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import type { ServeProcess } from '../support/process.ts';
import { startTempRedis } from '../support/redis.ts';
import type { TempRedis } from '../support/redis.ts';
import { testWallet } from '../support/wallet.ts';

const ADMIN_TOKEN = 'store-outage-admin-token-0123456789';
const OUTAGE_MS = 10_000;

let pg: TempPostgres;
let redis: TempRedis;
let server: ServeProcess;
let dir: string;

beforeAll(async () => {
  [pg, redis] = await Promise.all([startTempPostgres(), startTempRedis()]);
  dir = mkdtempSync(join(tmpdir(), 'cw-outage-'));
  server = await startServe({
    DATABASE_URL: pg.url,
    // The scale-out's key cache: its revision in Redis lets a key looked up before the outage be served from memory.
    REDIS_URL: redis.url,
    DATA_DIR: dir,
    API_KEY_PEPPER: 'store-outage-pepper-0123456789',
    ADMIN_TOKEN,
    DEMO_DAYS: '3',
    // The load below is the outage's, not the IP limits'.
    API_RATE_LIMITS: 'challenge=100000,sign-in=100000,public=100000,account=100000',
    // Nor the load shedder's (503 OVERLOADED when the event loop lags, which a busy test machine makes it do).
    SHED_LAG_MS: '0',
  });
  await waitForStatus(`${server.url}/healthz`, 200, 60_000);
});

afterAll(async () => {
  await server?.stop('SIGTERM');
  pg?.stop();
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  what: string;
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

async function call(
  what: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const r = await fetch(server.url + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await r.text();
  return {
    what,
    status: r.status,
    retryAfter: r.headers.get('retry-after'),
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

/** How a graphql-ws connection presenting `key` in its `connection_init` is closed. */
function wsClose(key: string): Promise<{ code: number; reason: string }> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  socket.once('open', () =>
    socket.send(JSON.stringify({ type: 'connection_init', payload: { 'x-sp-api-key': key } })),
  );
  return new Promise((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
}

const codeOf = (a: Answer): unknown => (a.body['error'] as { code?: unknown } | undefined)?.code;
const graphCodes = (a: Answer): unknown[] =>
  ((a.body['errors'] as { extensions?: { code?: unknown } }[] | undefined) ?? []).map(
    (e) => e.extensions?.code,
  );

describe('PostgreSQL stopped for 10 s under load', () => {
  it('answers 503 STORE_UNAVAILABLE (REST) or that code beside partial data (graph), is not ready, and recovers by itself', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const issue = async (): Promise<string> => {
      const r = await call('issue', '/api/admin/api-keys', {
        headers: admin,
        body: { plan: 'pro', approve: true },
      });
      expect(r.status).toBe(201);
      return r.body['key'] as string;
    };
    const seenKey = await issue();
    const unseenKey = await issue();
    const transitionKey = await issue();
    const unknownKey = generateKey();
    const wallet = testWallet();
    const session = await wallet.signIn(server.url);
    const bearer = { authorization: `Bearer ${session}` };
    const price = (key: string) =>
      call('price', '/v1/agg/simple/price?ids=litecoin&vs_currencies=usd', {
        headers: { 'x-sp-api-key': key },
      });
    const graph = (what: string, query: string) =>
      call(what, '/graphql', { headers: { 'x-sp-api-key': seenKey, ...bearer }, body: { query } });
    const MIXED = '{ coin(id: "litecoin") { id symbol } me { id address } }';
    const MUTATION = 'mutation { requestApiKey(plan: FREE, description: "during the outage") { key } }';
    const SIGN_IN = `mutation { requestSignInChallenge(address: "${wallet.address}") { nonce } }`;
    expect((await price(seenKey)).status).toBe(200); // now in the lookup cache

    /**
     * Every request that needs the store, and one that does not, at once. The transition's rounds write no key: a key
     * written just before the outage would (rightly) make the cached key unusable until the store is back.
     */
    const round = (unseen: string, keyWrites: boolean) =>
      Promise.all([
        price(unseen).then((a) => ({ ...a, what: 'unseen key' })),
        price(unknownKey).then((a) => ({ ...a, what: 'unknown key' })),
        call('account', '/api/account/me', { headers: bearer }),
        call('challenge', '/api/auth/challenge', { body: { address: wallet.address } }),
        call('sign-in', '/api/auth/session', {
          body: { address: wallet.address, signature: 'A'.repeat(88) },
        }),
        call('dapp store', '/api/dapps'),
        graph('graph mixed', MIXED),
        graph('graph sign-in', SIGN_IN),
        call('readyz', '/readyz'),
        price(seenKey).then((a) => ({ ...a, what: 'seen key' })),
        ...(keyWrites
          ? [
              call('key request', '/api/account/api-keys', {
                headers: bearer,
                body: { plan: 'free', description: 'during the outage' },
              }),
              graph('graph mutation', MUTATION),
            ]
          : []),
      ]);

    // Stopped under load: what is in flight as the server goes either succeeds or is an outage, never anything else.
    const inFlight = Promise.all([1, 2, 3].map(() => round(transitionKey, false)));
    pg.halt();
    const across = (await inFlight).flat();
    const outage: Answer[] = [];
    const until = Date.now() + OUTAGE_MS;
    while (Date.now() < until) outage.push(...(await round(unseenKey, true)));
    // A subscription's connection: WebSocket's Try Again Later, never graphql-ws's 4403 of an unusable key.
    const ws = await wsClose(unseenKey);
    pg.restart();
    expect(ws).toEqual({ code: 1013, reason: 'STORE_UNAVAILABLE' });

    for (const a of across) {
      if (a.what === 'readyz') expect([200, 503]).toContain(a.status);
      else if (a.what.startsWith('graph')) expect(a.status).toBe(200);
      else if (a.status >= 300)
        expect([a.what, a.status, codeOf(a)]).toEqual([a.what, 503, 'STORE_UNAVAILABLE']);
    }
    // Nothing a client sent became a 500, and no key was called unknown because the store was away.
    expect(outage.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    expect(outage.filter((a) => a.status === 401)).toEqual([]);
    expect(outage.length / 12).toBeGreaterThan(5); // rounds
    for (const a of outage) {
      switch (a.what) {
        case 'seen key':
          expect(a.status, 'a key looked up before the outage is served from memory').toBe(200);
          break;
        case 'readyz':
          expect(a.status).toBe(503);
          expect(a.body['missing']).toEqual(['store']);
          break;
        case 'graph mixed':
          expect(a.status).toBe(200);
          expect(a.body['data']).toEqual({ coin: { id: 'litecoin', symbol: 'ltc' }, me: null });
          expect(graphCodes(a)).toEqual(['STORE_UNAVAILABLE']);
          break;
        case 'graph mutation':
        case 'graph sign-in':
          expect(a.body['data']).toBeNull();
          expect(graphCodes(a)).toEqual(['STORE_UNAVAILABLE']);
          break;
        default:
          expect({ what: a.what, status: a.status, code: codeOf(a), retryAfter: a.retryAfter }).toEqual({
            what: a.what,
            status: 503,
            code: 'STORE_UNAVAILABLE',
            retryAfter: '5',
          });
      }
    }

    // Back by itself: ready again, and everything that failed now succeeds, in the same process.
    await waitForStatus(`${server.url}/readyz`, 200, 15_000);
    expect((await price(unseenKey)).status).toBe(200);
    expect(codeOf(await price(unknownKey))).toBe('API_KEY_UNKNOWN');
    expect((await call('account', '/api/account/me', { headers: bearer })).body['address']).toBe(
      wallet.address,
    );
    const requested = await call('key request', '/api/account/api-keys', {
      headers: bearer,
      body: { plan: 'free', description: 'after the outage' },
    });
    expect(requested.status).toBe(201);
    const mixed = await graph('graph mixed', MIXED);
    expect(mixed.body['errors']).toBeUndefined();
    expect(mixed.body['data']).toEqual({
      coin: { id: 'litecoin', symbol: 'ltc' },
      me: { id: expect.any(String), address: wallet.address },
    });
    const mutated = await graph('graph mutation', MUTATION);
    expect(mutated.body['errors']).toBeUndefined();
    expect((await graph('graph sign-in', SIGN_IN)).body['data']).toEqual({
      requestSignInChallenge: { nonce: expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
    expect(await wallet.signIn(server.url)).toMatch(/^cws_/);
    expect(server.child.exitCode).toBeNull();
  });
});

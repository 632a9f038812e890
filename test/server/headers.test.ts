/**
 * Response headers every surface of the server shares (`src/server/every-response.ts`): `X-Content-Type-Options:
 * nosniff` on every response — REST, errors, 404s, preflights, the graph, pages, assets, scripts, probes —, the
 * connection closed after an early answer to a large body, and the pages' framing rules (`src/server/browser/web-route.ts`): only this origin, the wallet hosts and the emulator's loopback origins.
 * The router is a stand-in (what is checked is the server around it).
 */
import { connect } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Router } from '../../router/index.ts';
import { MarketService } from '../../src/market/service.ts';
import { createServer } from '../../src/start/server.ts';
import { DRAINED_BODY_BYTES } from '../../src/server/every-response.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { testServices } from '../support/services.ts';
import { ADMIN_TOKEN } from '../accounts/harness.ts';

const WALLET_HOST = 'https://wallet.example';
let app: FastifyInstance;
let db: Db;
beforeAll(async () => {
  db = await openMemoryDb();
  const engine = engineConfig({ staleAfterMs: 900_000 });
  const services = testServices(db, 'headers.test');
  const graph = {
    respond: async () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"data":{}}',
    }),
    health: () => ({ status: 'UP' as const }),
  } as unknown as Router;
  app = await createServer({
    market: new MarketService({ db, engine }),
    engine,
    dataset: () => ({ kind: 'demo', notice: null }),
    graph,
    provider: { hostOrigins: [WALLET_HOST], identityOrigin: undefined },
    accounts: {
      keys: services.keys,
      ownKeys: services.ownKeys,
      accounts: services.accounts,
      adminToken: ADMIN_TOKEN,
      auth: services.auth,
      dapps: services.dapps,
    },
    names: { names: services.names, partners: services.partners },
    ...(services.bridge ? { bridge: { bridge: services.bridge } } : {}),
  });
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('response headers', () => {
  it('X-Content-Type-Options: nosniff on every response, whatever answered it', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: Array<[string, InjectOptions]> = [
      ['price API', { url: '/v1/agg/ping' }],
      ['price API not ready', { url: '/v1/agg/simple/price?ids=bitcoin&vs_currencies=usd' }],
      ['price API bad parameter', { url: '/v1/agg/coins/markets?vs_currency=' }],
      ['health', { url: '/healthz' }],
      ['404', { url: '/nothing-here' }],
      ['a path that is not valid percent-encoding', { url: '/v1/agg/%E0%A4%A' }],
      [
        'CORS preflight',
        {
          method: 'OPTIONS',
          url: '/v1/agg/ping',
          headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' },
        },
      ],
      ['graph', { method: 'POST', url: '/graphql', headers: json, payload: '{"query":"{ currencies }"}' }],
      ['graph, bad JSON', { method: 'POST', url: '/graphql', headers: json, payload: '{"query":' }],
      ['graph health', { url: '/graphql/health' }],
      ['accounts 401', { url: '/api/account/me' }],
      ['accounts 400', { method: 'POST', url: '/api/auth/challenge', headers: json, payload: '{}' }],
      ['bridge', { url: '/api/coins' }],
      ['names 404', { url: '/api/resolve/nobody.coin?asset=LTC' }],
      ['portal page', { url: '/portal' }],
      ['admin page', { url: '/admin' }],
      ['coin logo', { url: '/assets/coins/litecoin.svg' }],
      ['provider script', { url: '/provider.js' }],
    ];
    const missing: string[] = [];
    for (const [what, req] of cases) {
      const r = await app.inject(req);
      if (r.headers['x-content-type-options'] !== 'nosniff') missing.push(`${what}: ${r.statusCode}`);
    }
    expect(missing).toEqual([]);
  });

  it('/admin and /portal: framed only by this origin, the wallet hosts and the emulator on loopback', async () => {
    for (const url of ['/admin', '/portal']) {
      const r = await app.inject({ url });
      expect(r.statusCode).toBe(200);
      const csp = String(r.headers['content-security-policy']);
      const ancestors = /frame-ancestors ([^;]*)/.exec(csp)?.[1];
      expect(ancestors).toBe(`'self' ${WALLET_HOST} http://127.0.0.1:* http://localhost:*`);
      expect(ancestors).not.toMatch(/https:(\s|$)/);
      expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('a JSON body with invalid UTF-8 is 400 INVALID_JSON (the server’s JSON parser checks the bytes)', async () => {
    const payload = Buffer.concat([Buffer.from('{"address":"ltc1'), Buffer.from([0xfe]), Buffer.from('"}')]);
    const r = await app.inject({
      method: 'POST',
      url: '/api/auth/challenge',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect([r.statusCode, (r.json() as { error?: { code?: string } }).error?.code]).toEqual([
      400,
      'INVALID_JSON',
    ]);
  });

  it('an answer sent before a large body was read closes the connection; before a small one it keeps it', async () => {
    const url = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    /** A request head declaring `length` bytes of body, and 10 of them: the status line, `Connection`, whether closed. */
    const answeredEarly = (length: number) =>
      new Promise<{ head: string; closed: boolean }>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname);
        let text = '';
        let closed = false;
        socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
        socket.on('close', () => (closed = true));
        socket.on('error', reject);
        socket.write(
          `GET /v1/agg/simple/price?ids=bitcoin&vs_currencies=usd HTTP/1.1\r\nHost: x\r\nx-sp-api-key: not-a-key\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n0123456789`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve({ head: text.split('\r\n\r\n')[0] ?? '', closed });
        }, 500);
      });
    // Answered at once (a GET's body is never read; here the market is not ready: 503), the body still on its way.
    const large = await answeredEarly(DRAINED_BODY_BYTES + 1);
    expect(large.head).toMatch(/^HTTP\/1\.1 503/);
    expect(large.head).toMatch(/\r\nconnection: close/i);
    expect(large.closed).toBe(true);
    const small = await answeredEarly(DRAINED_BODY_BYTES);
    expect(small.head).toMatch(/^HTTP\/1\.1 503/);
    expect(small.head).toMatch(/\r\nconnection: keep-alive/i);
    expect(small.closed).toBe(false);
  });
});

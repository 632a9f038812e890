/**
 * The router's access rules over the embedded graph (`support/router.ts`): the API key, checked before parsing, and
 * the rate-limit budgets it shares with REST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call } from '../accounts/harness.ts';
import type { GqlBody, GraphHarness, RawResponse } from './router-harness.ts';
import { CHEAP, codes, freshIp, routerRequests, startRouterGraph, UNKNOWN_KEY } from './support/router.ts';
import type { RouterGraph } from './support/router.ts';

let t: RouterGraph;
let g: GraphHarness;
beforeAll(async () => {
  t = await startRouterGraph();
  g = t.g;
}, 120_000);
afterAll(async () => {
  await t?.close();
});
const { post, get, restPing, viaSmall } = routerRequests(() => t);

describe('API key, before parsing', () => {
  it('no key: the keyless plan and its budget headers', async () => {
    const r = await g.gql(CHEAP, { ip: freshIp() });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ coin: { id: 'bitcoin', name: 'Bitcoin' } });
    expect(r.headers['x-api-plan']).toBe('keyless');
    expect(r.headers['x-ratelimit-limit']).toBe('240');
    expect(r.headers['x-ratelimit-remaining']).toBe('239');
    // The first request leaves the sliding window 60 to 66 s after it was counted (tenths of a window).
    expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(60);
    expect(Number(r.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(66);
  });

  it('an unknown key is 401 API_KEY_UNKNOWN with the REST message, and counts nothing', async () => {
    const restAnswer = await restPing(UNKNOWN_KEY);
    expect(restAnswer.status).toBe(401);
    const r = await g.gql(CHEAP, { headers: { 'x-sp-api-key': UNKNOWN_KEY } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      errors: [
        {
          message: (restAnswer.body as { error: { message: string } }).error.message,
          extensions: { code: 'API_KEY_UNKNOWN' },
        },
      ],
    });
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    expect(r.headers['x-api-plan']).toBeUndefined();
  });

  it('pending, rejected and revoked keys are 401 with their codes and REST messages', async () => {
    const pending = await g.makeKey('free', { approve: false });
    const rejected = await g.makeKey('free', { approve: false });
    const rj = await call(g.rest, 'POST', `/api/admin/api-keys/${rejected.id}/reject`, {
      token: ADMIN_TOKEN,
      body: { reason: 'not a real project' },
    });
    expect(rj.status).toBe(200);
    const revoked = await g.makeKey('pro');
    // Used once while approved (the lookup cache must not keep it usable after the revocation).
    expect((await g.gql(CHEAP, { headers: { 'x-sp-api-key': revoked.key } })).status).toBe(200);
    const rv = await call(g.rest, 'POST', `/api/admin/api-keys/${revoked.id}/revoke`, {
      token: ADMIN_TOKEN,
      body: { reason: 'leaked' },
    });
    expect(rv.status).toBe(200);
    for (const [k, code] of [
      [pending.key, 'API_KEY_PENDING'],
      [rejected.key, 'API_KEY_REJECTED'],
      [revoked.key, 'API_KEY_REVOKED'],
    ] as const) {
      const viaRest = await restPing(k);
      expect(viaRest.status).toBe(401);
      const r = await g.gql(CHEAP, { headers: { 'x-sp-api-key': k } });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        errors: [
          { message: (viaRest.body as { error: { message: string } }).error.message, extensions: { code } },
        ],
      });
    }
  });

  it('two different keys are 400 API_KEY_CONFLICT (header and query, or a repeated query parameter)', async () => {
    const a = await g.makeKey('free');
    const b = await g.makeKey('free');
    const both = await post(
      { query: CHEAP },
      { url: `/graphql?x_sp_api_key=${b.key}`, headers: { 'x-sp-api-key': a.key } },
    );
    expect(both.status).toBe(400);
    expect(codes(both.json as GqlBody)).toEqual(['API_KEY_CONFLICT']);
    const twice = await get({ query: CHEAP }, {});
    expect(twice.status).toBe(200);
    const repeated = await g.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent(CHEAP)}&x_sp_api_key=${a.key}&x_sp_api_key=${b.key}`,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(repeated.status).toBe(400);
    expect(codes(repeated.json as GqlBody)).toEqual(['API_KEY_CONFLICT']);
    // The same key in two places is one key.
    const same = await post(
      { query: CHEAP },
      { url: `/graphql?x_sp_api_key=${a.key}`, headers: { 'x-sp-api-key': a.key } },
    );
    expect(same.status).toBe(200);
    expect(same.headers['x-api-plan']).toBe('free');
  });

  it('a key in the x-sp-api-key header, the x_sp_api_key query parameter (GET) or a CoinGecko alias', async () => {
    const k = await g.makeKey('pro');
    const byHeader = await g.gql(CHEAP, { headers: { 'x-sp-api-key': k.key } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.headers['x-api-plan']).toBe('pro');
    expect(byHeader.headers['x-ratelimit-limit']).toBe('3000');
    expect(byHeader.headers['x-ratelimit-remaining']).toBe('2999');
    const byQuery = await get({ query: CHEAP, x_sp_api_key: k.key });
    expect(byQuery.status).toBe(200);
    expect((byQuery.json as GqlBody).data).toEqual({ coin: { id: 'bitcoin', name: 'Bitcoin' } });
    expect(byQuery.headers['x-api-plan']).toBe('pro');
    expect(byQuery.headers['x-ratelimit-remaining']).toBe('2998');
    const byAlias = await g.gql(CHEAP, { headers: { 'x-cg-pro-api-key': k.key } });
    expect(byAlias.headers['x-api-plan']).toBe('pro');
    expect(byAlias.headers['x-ratelimit-remaining']).toBe('2997');
  });

  it('is checked before anything is parsed: a bad key wins over a broken query, tokens, JSON or batch', async () => {
    const bad = { 'x-sp-api-key': UNKNOWN_KEY };
    const cases: RawResponse[] = [
      await post({ query: '{ coin(id: ' }, { headers: bad }),
      await post({ query: `{ ${'a '.repeat(5_000)}` }, { headers: bad }),
      await post('{"query": "{ currencies }"', { headers: bad }),
      await post([], { headers: bad }),
      await post(
        Array.from({ length: 11 }, () => ({ query: '{ currencies }' })),
        { headers: bad },
      ),
      await get({ query: '{{{' }, { headers: bad }),
    ];
    for (const r of cases) {
      expect(r.status).toBe(401);
      expect(codes(r.json as GqlBody)).toEqual(['API_KEY_UNKNOWN']);
    }
    // Without the key the same broken query is a parse error (so the 401 above was not one by accident): a request
    // error, 200 under application/json.
    const parse = await post({ query: '{ coin(id: ' });
    expect(parse.status).toBe(200);
    expect((parse.json as GqlBody).data).toBeUndefined();
    expect(codes(parse.json as GqlBody)).toEqual(['GRAPHQL_PARSE_FAILED']);
  });
});

/**
 * A POST /graphql over a real socket that announces a 1 MB JSON body and sends none: what the server answers within
 * `waitMs` (empty when it waits for the body).
 */
async function headersOnly(headers: Record<string, string>, waitMs = 5_000): Promise<string> {
  const { createConnection } = await import('node:net');
  if (!listening) {
    await g.app.listen({ port: 0, host: '127.0.0.1' });
    listening = true;
  }
  const port = (g.app.server.address() as { port: number }).port;
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(
        `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n${lines.join('')}\r\n`,
      );
    });
    let text = '';
    const done = () => {
      socket.destroy();
      resolve(text);
    };
    // A whole answer (its JSON body ends the text), or what came within `waitMs`.
    socket.on('data', (d: Buffer) => {
      text += d.toString();
      if (/\r\n\r\n[^]*\}$/.test(text)) done();
    });
    setTimeout(done, waitMs);
  });
}
let listening = false;

describe('rate limit: the budgets of REST', () => {
  it('one budget per key across REST and GraphQL', async () => {
    const k = await g.makeKey('free');
    for (let i = 0; i < 5; i++) expect((await restPing(k.key)).status).toBe(200);
    expect((await restPing(k.key)).headers['x-ratelimit-remaining']).toBe('594');
    // `access.check` is exactly what the REST hook calls.
    const d = await g.access.check({ headers: { 'x-sp-api-key': k.key }, query: {}, socketIp: '10.9.0.1' });
    expect(d.ok && d.headers['x-ratelimit-remaining']).toBe('593');
    const r = await g.gql(CHEAP, { headers: { 'x-sp-api-key': k.key } });
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBe('600');
    expect(r.headers['x-ratelimit-remaining']).toBe('592');
    expect((await restPing(k.key)).headers['x-ratelimit-remaining']).toBe('591');
  });

  it('a spent budget is 429 RATE_LIMITED with retry-after, and nothing runs', async () => {
    const k = await g.makeKey('enterprise', { limitPerMinute: 3 });
    const h = { 'x-sp-api-key': k.key };
    for (const left of ['2', '1', '0']) {
      const ok = await g.gql(CHEAP, { headers: h });
      expect(ok.status).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBe(left);
    }
    g.resetCounts();
    const r = await g.gql(CHEAP, { headers: h });
    expect(r.status).toBe(429);
    const retry = Number(r.headers['retry-after']);
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 66).toBe(true);
    expect(r.headers['x-ratelimit-limit']).toBe('3');
    expect(r.headers['x-ratelimit-remaining']).toBe('0');
    expect(r.headers['x-api-plan']).toBe('enterprise');
    expect(r.body).toEqual({
      errors: [
        {
          message: `rate limit of 3 requests per minute reached for this API key (enterprise plan): retry after ${retry} s`,
          extensions: { code: 'RATE_LIMITED' },
        },
      ],
    });
    expect(g.counts.contexts).toEqual({ markets: 0, identity: 0, bridge: 0, accounts: 0 });
    // REST sees the same spent budget.
    expect((await restPing(k.key)).status).toBe(429);
  });

  it('once a budget is spent, later requests are refused before their body is read', async () => {
    const k = await g.makeKey('enterprise', { limitPerMinute: 1 });
    const h = { 'x-sp-api-key': k.key };
    expect((await g.gql(CHEAP, { headers: h })).status).toBe(200);
    expect((await g.gql(CHEAP, { headers: h })).status).toBe(429); // the router's own refusal: now known spent
    // Answered before its body arrives: the request announces 1 MB and sends none of it.
    const early = await headersOnly(h);
    expect(early).toMatch(/^HTTP\/1\.1 429 /);
    expect(early).toMatch(/"code":"RATE_LIMITED"/);
    expect(early).toMatch(/\r\nretry-after: \d+\r\n/i);
    // An unknown key likewise: 401 before the body.
    const unknown = await post('{ not json', { headers: { 'x-sp-api-key': UNKNOWN_KEY } });
    expect(unknown.status).toBe(401);
    expect(codes(unknown.json as GqlBody)).toEqual(['API_KEY_UNKNOWN']);
    // Another key's requests are read as usual.
    const other = await g.makeKey('free');
    expect(
      codes((await post('{ not json', { headers: { 'x-sp-api-key': other.key } })).json as GqlBody),
    ).toEqual(['INVALID_JSON']);
  });

  it('keyless callers are limited per address (keylessPerMinute), with a hint to send a key', async () => {
    const ip = '10.77.0.1';
    expect((await viaSmall({ query: '{ currencies }' }, ip)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await viaSmall({ query: '{ currencies }' }, ip)).headers['x-ratelimit-remaining']).toBe('0');
    const r = await viaSmall({ query: '{ currencies }' }, ip);
    expect(r.status).toBe(429);
    const retry = Number(r.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(r.json).toEqual({
      errors: [
        {
          message: `rate limit of 2 requests per minute reached for requests without an API key from this address: retry after ${retry} s, or send an API key for a higher limit`,
          extensions: { code: 'RATE_LIMITED' },
        },
      ],
    });
    // Another address has its own budget.
    expect((await viaSmall({ query: '{ currencies }' }, '10.77.0.2')).status).toBe(200);
  });

  it('a batch of N operations consumes N; a refused batch consumes one', async () => {
    const k = await g.makeKey('free');
    const h = { 'x-sp-api-key': k.key };
    const three = await post([{ query: CHEAP }, { query: '{ currencies }' }, { query: CHEAP }], {
      headers: h,
    });
    expect(three.status).toBe(200);
    expect((three.json as GqlBody[]).map((b) => Object.keys(b.data ?? {}))).toEqual([
      ['coin'],
      ['currencies'],
      ['coin'],
    ]);
    expect(three.headers['x-ratelimit-remaining']).toBe('597');
    expect((await g.gql(CHEAP, { headers: h })).headers['x-ratelimit-remaining']).toBe('596');
    const tooMany = await post(
      Array.from({ length: 11 }, () => ({ query: CHEAP })),
      { headers: h },
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.headers['x-ratelimit-remaining']).toBe('595');
    const empty = await post([], { headers: h });
    expect(empty.status).toBe(400);
    expect(empty.headers['x-ratelimit-remaining']).toBe('594');
  });

  it('a batch larger than what is left of the budget is refused whole', async () => {
    const k = await g.makeKey('enterprise', { limitPerMinute: 4 });
    const h = { 'x-sp-api-key': k.key };
    expect((await post([{ query: CHEAP }, { query: CHEAP }], { headers: h })).status).toBe(200);
    g.resetCounts();
    const r = await post([{ query: CHEAP }, { query: CHEAP }, { query: CHEAP }], { headers: h });
    expect(r.status).toBe(429);
    expect(codes(r.json as GqlBody)).toEqual(['RATE_LIMITED']);
    expect(g.counts.contexts.markets).toBe(0);
  });
});

describe('process signals', () => {
  it("leaves SIGINT/SIGTERM to the process: the runtime's own dispose-on-signal listeners are taken off", () => {
    // The router (built in beforeAll) is stopped by its process after the HTTP server has drained.
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      expect(process.listeners(signal).map((l) => l.name)).not.toContain('terminateHandler');
  });
});

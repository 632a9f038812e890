/**
 * `GET /` (src/server/home/): the landing page as HTML or JSON by the client's `Accept` (q-values honoured; 406 in
 * the error shape for a client that takes neither), the product's version from package.json and the data it serves,
 * the configured price base path, links that all point inside the product and answer, everything escaped, the pages'
 * CSP, and 304 through the ETag of each form.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';
import { pageCsp } from '../../src/server/browser/web-route.ts';
import { DOC_PAGES } from '../../src/server/docs/pages.ts';
import { escapeHtml } from '../../src/server/home/html.ts';
import { homeOf } from '../../src/server/home/model.ts';
import type { Home } from '../../src/server/home/model.ts';
import { bareServer, STAND_IN_ROUTER } from './bare-server.ts';
import type { BareServer } from './bare-server.ts';

const WALLET_HOST = 'https://wallet.example';
const PRICE_BASE = '/v3/prices';
const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const kitsDir = mkdtempSync(join(tmpdir(), 'cw-home-'));
let dataset: { kind: 'demo' | 'live' | 'loading'; notice: string | null } = { kind: 'loading', notice: null };
let s: BareServer;

beforeAll(async () => {
  mkdirSync(join(kitsDir, 'kit'));
  writeFileSync(join(kitsDir, 'kit', 'package.json'), '{"name":"@coinwallet/kit","version":"0.0.0"}');
  s = await bareServer({
    priceBase: PRICE_BASE,
    graph: STAND_IN_ROUTER,
    kitsDir,
    provider: { hostOrigins: [WALLET_HOST], identityOrigin: undefined },
    dataset: () => dataset,
  });
});
afterAll(async () => {
  await s?.close();
  rmSync(kitsDir, { recursive: true, force: true });
});

const get = (accept?: string, headers: Record<string, string> = {}) =>
  s.app.inject({ url: '/', headers: { ...(accept === undefined ? {} : { accept }), ...headers } });

describe('GET / negotiation', () => {
  it('HTML to a browser, to */* and without Accept; JSON to application/json', async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    for (const accept of [browser, '*/*', undefined, 'text/*'])
      expect([accept, (await get(accept)).headers['content-type']]).toEqual([
        accept,
        'text/html; charset=utf-8',
      ]);
    for (const accept of ['application/json', 'application/json; charset=utf-8', 'application/*'])
      expect([accept, (await get(accept)).headers['content-type']]).toEqual([
        accept,
        'application/json; charset=utf-8',
      ]);
  });

  it("the client's preferred type wins by q-value, then by its order", async () => {
    const type = async (accept: string) => String((await get(accept)).headers['content-type']).split(';')[0];
    expect(await type('text/html;q=0.5, application/json;q=0.9')).toBe('application/json');
    expect(await type('application/json;q=0.5, text/html;q=0.9')).toBe('text/html');
    expect(await type('*/*, text/html;q=0')).toBe('application/json');
    expect(await type('application/json, text/html')).toBe('application/json');
    expect(await type('text/html, application/json')).toBe('text/html');
  });

  it('a client that accepts neither: 406 NOT_ACCEPTABLE in the error shape', async () => {
    for (const accept of [
      'image/png',
      'text/plain, application/xml',
      'application/json;q=0, text/html;q=0',
    ]) {
      const r = await get(accept);
      expect([accept, r.statusCode, r.headers['content-type']]).toEqual([
        accept,
        406,
        'application/json; charset=utf-8',
      ]);
      const { error } = r.json() as { error: { code: string; message: string } };
      expect(error.code).toBe('NOT_ACCEPTABLE');
      expect(error.message).toContain('text/html or application/json');
    }
  });

  it('Vary: Accept, a strong ETag per form, 304 on If-None-Match', async () => {
    const html = await get('text/html');
    const json = await get('application/json');
    expect(html.headers.vary).toMatch(/\bAccept\b/);
    expect(json.headers.vary).toMatch(/\bAccept\b/);
    expect(html.headers.etag).toMatch(/^"[\w-]{32}"$/);
    expect(json.headers.etag).not.toBe(html.headers.etag);
    expect(html.headers['cache-control']).toBe('no-cache');
    for (const [accept, r] of [
      ['text/html', html],
      ['application/json', json],
    ] as const) {
      const again = await get(accept, { 'if-none-match': String(r.headers.etag) });
      expect([accept, again.statusCode, again.body]).toEqual([accept, 304, '']);
    }
    // Another form's tag is not this one's.
    expect((await get('text/html', { 'if-none-match': String(json.headers.etag) })).statusCode).toBe(200);
    // The CORS plugin's Vary survives ours.
    const cors = await get('application/json', { origin: 'https://dapp.example' });
    expect(String(cors.headers.vary)).toMatch(/Origin/);
    expect(String(cors.headers.vary)).toMatch(/Accept/);
  });
});

describe('GET / content', () => {
  it('JSON: the product, its version from package.json, the dataset, and where everything is', async () => {
    dataset = { kind: 'demo', notice: 'Generated demo data' };
    const h = (await get('application/json', { host: '127.0.0.1:4000' })).json() as Home;
    expect(h).toMatchObject({
      product: 'Coin Wallet developer platform',
      version: VERSION,
      dataset: 'demo',
      notice: 'Generated demo data',
      links: {
        portal: '/portal',
        admin: '/admin',
        priceApi: PRICE_BASE,
        openapi: `${PRICE_BASE}/openapi.json`,
        graphql: '/graphql',
        graphqlSchema: '/graphql/schema.graphql',
        healthz: '/healthz',
        livez: '/livez',
        readyz: '/readyz',
      },
    });
    expect(h.apis.map((a) => [a.name, a.base])).toEqual([
      ['Price API (CoinGecko v3 compatible)', PRICE_BASE],
      ['The graph (GraphQL)', '/graphql'],
    ]);
    expect(h.apis[0]?.docs).toContain('/docs/price-api.md');
    expect(h.docs.map((d) => d.href)).toEqual(DOC_PAGES.map((p) => `/docs/${p.file}`));
    expect(h.kits.install).toBe('npm install http://127.0.0.1:4000/kits/kit.tgz');
    expect(h.kits.packages).toHaveLength(20);
    expect(h.kits.packages[0]).toEqual({
      name: '@coinwallet/kit',
      coin: null,
      ticker: null,
      href: '/kits/kit.tgz',
      built: true,
    });
    expect(h.kits.packages[1]).toEqual({
      name: '@coinwallet/kit-ltc',
      coin: 'Litecoin',
      ticker: 'LTC',
      href: '/kits/kit-ltc.tgz',
      built: false,
    });
  });

  it('says what data it serves as that changes', async () => {
    for (const kind of ['loading', 'demo', 'live'] as const) {
      dataset = { kind, notice: null };
      expect(((await get('application/json')).json() as Home).dataset).toBe(kind);
    }
    dataset = { kind: 'live', notice: null };
    expect((await get()).body).toContain('Live data from the configured sources');
    dataset = { kind: 'demo', notice: null };
    expect((await get()).body).toContain('Demo data: generated, not real market data');
  });

  it('HTML: the pages’ CSP and framing rules, and every link of the JSON form', async () => {
    dataset = { kind: 'demo', notice: null };
    const r = await get('text/html');
    expect(r.headers['content-security-policy']).toBe(pageCsp([WALLET_HOST]));
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(r.body).not.toMatch(/<script/i);
    const hrefs = new Set([...r.body.matchAll(/href="([^"]*)"/g)].map((m) => m[1]));
    const h = (await get('application/json')).json() as Home;
    const jsonLinks = [
      ...Object.values(h.links).filter((l): l is string => l !== null && l !== PRICE_BASE),
      ...h.docs.map((d) => d.href),
      ...h.kits.packages.map((k) => k.href),
    ];
    for (const l of jsonLinks) expect([l, hrefs.has(l)]).toEqual([l, true]);
    expect(r.body).toContain('19 of 20 kits are not built on this server');
    expect(r.body).toContain('npm run build:kits');
  });

  it('every link points inside the product and is served (the probes /livez and /readyz by the process)', async () => {
    const h = (await get('application/json')).json() as Home;
    const links = [...Object.values(h.links), ...h.docs.map((d) => d.href), h.kits.packages[0]?.href];
    for (const l of links) {
      if (l === null || l === undefined) continue;
      expect(l).toMatch(/^\/[^/]/);
      if (l === '/livez' || l === '/readyz' || l === PRICE_BASE) continue; // src/start/process.ts; a base path
      const r = await s.app.inject({ url: l });
      expect([l, r.statusCode === 404 && (r.json() as { error: { code: string } }).error.code]).toEqual([
        l,
        false,
      ]);
    }
  }, 60_000);

  it('escapes what it renders: the data notice and the Host header can hold no markup', async () => {
    dataset = { kind: 'demo', notice: '<script>alert(1)</script> & "quotes"' };
    const r = await get('text/html', { host: 'evil.example"><script>x</script>' });
    expect(r.body).not.toContain('<script>');
    expect(r.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(r.body).toContain('npm install http://HOST:PORT/kits/kit.tgz');
    expect(escapeHtml(`<a href='x' title="y">&</a>`)).toBe(
      '&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('homeOf', () => {
  it('lists the APIs this server mounts', () => {
    const state = {
      dataset: { kind: 'live' as const, notice: null },
      builtKits: new Set<string>(),
      origin: null,
    };
    const all = homeOf(
      { priceBase: '/v1/agg', graph: true, accounts: true, names: true, bridge: true },
      state,
    );
    expect(all.apis.map((a) => a.base)).toEqual(['/v1/agg', '/graphql', '/api', '/api', '/api']);
    expect(all.apis.flatMap((a) => a.docs)).toEqual(
      expect.arrayContaining(['/docs/names.md', '/docs/bridge.md', '/docs/accounts.md', '/docs/graph.md']),
    );
    const bare = homeOf(
      { priceBase: '/v1/agg', graph: false, accounts: false, names: false, bridge: false },
      state,
    );
    expect(bare.apis.map((a) => a.base)).toEqual(['/v1/agg']);
    expect([bare.links.graphql, bare.links.graphqlSchema]).toEqual([null, null]);
  });
});

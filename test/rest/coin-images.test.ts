import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../src/access/access.ts';
import { AccessRefusal } from '../../src/access/errors.ts';
import { ApiError } from '../../src/core/errors.ts';
import { loadConfig } from '../../src/config.ts';
import { DEMO_NOTICE } from '../../src/demo/dataset.ts';
import { MarketService } from '../../src/market/service.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { accessHook } from '../../src/rest/access-hook.ts';
import { COIN_IMAGE_MAX_AGE, SPARKLINE_MAX_AGE } from '../../src/rest/assets/index.ts';
import { SPARKLINE_BOX } from '../../src/rest/assets/svg.ts';
import { createServer } from '../../src/start/server.ts';
import type { ServerOptions } from '../../src/start/server.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';
import { findAll, parseXml } from '../support/xml.ts';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('operator png')]);
const OPERATOR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Dogecoin"><circle r="9"/></svg>';

let tm: TestMarket;
let app: FastifyInstance;
let root: string;
let logos: string;
let withLogos: FastifyInstance;
let guarded: FastifyInstance;
let accessChecks = 0;

/** Another server over the same market (cheap: no second dataset). */
const server = (extra: Partial<ServerOptions>) =>
  createServer({
    market: tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    dataset: () => ({ kind: 'demo', notice: DEMO_NOTICE(1) }),
    now: () => TEST_NOW,
    ...extra,
  });

beforeAll(async () => {
  tm = await createTestMarket({ days: 10 });
  app = tm.app;
  root = mkdtempSync(join(tmpdir(), 'coin-images-'));
  logos = join(root, 'logos');
  mkdirSync(logos);
  // A file next to the folder: no URL may reach it.
  writeFileSync(
    join(root, 'escape.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"><title>escaped</title></svg>',
  );
  withLogos = await server({ coinImagesDir: logos });
  // The product's access layer on the price base path, refusing everything: the images must not be behind it.
  const denyAll: Pick<Access, 'check' | 'enter'> = {
    check: async () => {
      accessChecks++;
      return new AccessRefusal(new ApiError(429, 'RATE_LIMITED', 'over the keyless limit'));
    },
    enter: () => Promise.resolve(() => undefined),
  };
  guarded = await server({ beforeRoutes: accessHook(denyAll, { prefixes: ['/v1/agg'] }) });
}, 120_000);

afterAll(async () => {
  await withLogos?.close();
  await guarded?.close();
  await tm?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, on = app) => on.inject({ url, headers });

describe('GET /assets/coins/<id>.svg', () => {
  it('every coin of /coins/list has a well-formed SVG badge naming it', async () => {
    const list = (await get('/v1/agg/coins/list')).json() as { id: string; symbol: string; name: string }[];
    expect(list.length).toBeGreaterThan(60);
    for (const c of list) {
      const r = await get(`/assets/coins/${c.id}.svg`);
      expect(r.statusCode, c.id).toBe(200);
      expect(r.headers['content-type']).toMatch(/^image\/svg\+xml\b/);
      const svg = parseXml(r.body);
      expect(svg.name).toBe('svg');
      expect(svg.attrs.role).toBe('img');
      const title = `${c.name} (${c.symbol.toUpperCase()})`;
      expect(svg.attrs['aria-label']).toBe(title);
      expect(findAll(svg, 'title')[0]?.text).toBe(title);
      expect(findAll(svg, 'text')[0]?.text).toBe(c.symbol.toUpperCase());
    }
  });

  it('is cacheable: strong ETag, If-None-Match → 304, a day of max-age, nosniff', async () => {
    const r = await get('/assets/coins/litecoin.svg');
    expect(r.headers).toMatchObject({
      'cache-control': `public, max-age=${COIN_IMAGE_MAX_AGE}`,
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
    });
    expect(COIN_IMAGE_MAX_AGE).toBe(86_400);
    expect(r.headers['content-security-policy']).toContain('sandbox');
    const etag = String(r.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get('/assets/coins/litecoin.svg')).body).toBe(r.body);
    const again = await get('/assets/coins/litecoin.svg', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await get('/assets/coins/litecoin.svg', { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
    expect((await get('/assets/coins/litecoin.svg', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get('/assets/coins/dogecoin.svg')).headers.etag).not.toBe(etag);
    const head = await app.inject({ method: 'HEAD', url: '/assets/coins/litecoin.svg' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('an unknown coin: 404 COIN_NOT_FOUND, the price API’s own error body', async () => {
    const r = await get('/assets/coins/not-a-coin.svg');
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json()).toEqual((await get('/v1/agg/coins/not-a-coin')).json());
    expect(r.json()).toMatchObject({ error: { code: 'COIN_NOT_FOUND' } });
  });

  it('any other file name, traversal attempts included: 404 with the JSON error body', async () => {
    const urls = [
      '/assets/coins/litecoin.png',
      '/assets/coins/litecoin',
      '/assets/coins/LITECOIN.svg',
      '/assets/coins/.svg',
      '/assets/coins/',
      '/assets/coins/..%2Fescape.svg',
      '/assets/coins/..%2F..%2Fpackage.json',
      '/assets/coins/%2e%2e%2fescape.svg',
      '/assets/coins/..%5Cescape.svg',
      '/assets/coins/litecoin%2F..%2F..%2Fescape.svg',
      '/assets/coins/litecoin.svg%00.png',
      '/assets/coins/../escape.svg',
      '/assets/sparklines/..%2Fescape.svg',
      '/assets/sparklines/litecoin.png',
    ];
    for (const url of urls) {
      for (const on of [app, withLogos]) {
        const r = await get(url, {}, on);
        expect(r.statusCode, url).toBe(404);
        expect(r.body).not.toContain('escaped');
        const code = (r.json() as { error: { code: string } }).error.code;
        expect(['NOT_FOUND', 'COIN_NOT_FOUND'], url).toContain(code);
      }
    }
    expect((await get('/assets/coins/litecoin.png')).json()).toMatchObject({
      error: { code: 'NOT_FOUND', message: expect.stringContaining('/assets/coins/<id>.svg') },
    });
  });

  it("an operator's logo in COIN_IMAGES_DIR wins, with its own type and ETag; the others keep their badge", async () => {
    const badge = await get('/assets/coins/dogecoin.svg', {}, withLogos);
    expect(badge.body).toBe((await get('/assets/coins/dogecoin.svg')).body);
    writeFileSync(join(logos, 'dogecoin.png'), PNG);
    const png = await get('/assets/coins/dogecoin.svg', {}, withLogos);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.equals(PNG)).toBe(true);
    expect(png.headers.etag).not.toBe(badge.headers.etag);
    const etag = String(png.headers.etag);
    expect((await get('/assets/coins/dogecoin.svg', { 'if-none-match': etag }, withLogos)).statusCode).toBe(
      304,
    );
    writeFileSync(join(logos, 'dogecoin.svg'), OPERATOR_SVG);
    const svg = await get('/assets/coins/dogecoin.svg', {}, withLogos);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml\b/);
    expect(svg.body).toBe(OPERATOR_SVG);
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect((await get('/assets/coins/litecoin.svg', {}, withLogos)).body).toBe(
      (await get('/assets/coins/litecoin.svg')).body,
    );
    rmSync(join(logos, 'dogecoin.svg'));
    rmSync(join(logos, 'dogecoin.png'));
    expect((await get('/assets/coins/dogecoin.svg', {}, withLogos)).body).toBe(badge.body);
  });

  it('COIN_IMAGES_DIR: read from the environment, resolved; a missing folder stops start-up', async () => {
    expect(loadConfig({}).coinImagesDir).toBeUndefined();
    expect(loadConfig({ COIN_IMAGES_DIR: 'logos' }).coinImagesDir).toBe(resolve('logos'));
    await expect(server({ coinImagesDir: join(root, 'nope') })).rejects.toThrow(/COIN_IMAGES_DIR/);
  });
});

describe('GET /assets/sparklines/<id>.svg', () => {
  const { height, pad } = SPARKLINE_BOX;

  it("draws the snapshot's 7-day closes: one point per close, in order, highest at the top", async () => {
    const closes = tm.market.snapshot?.markets.get('litecoin')?.sparkline7d ?? [];
    expect(closes.length).toBeGreaterThan(100);
    const r = await get('/assets/sparklines/litecoin.svg');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^image\/svg\+xml\b/);
    const svg = parseXml(r.body);
    expect(svg.attrs['aria-label']).toMatch(/^Litecoin \(LTC\): price over 7 days in USD, (up|down) /);
    const points = (findAll(svg, 'polyline')[0]?.attrs.points ?? '')
      .split(' ')
      .map((p) => p.split(',').map(Number) as [number, number]);
    expect(points).toHaveLength(closes.length);
    const max = Math.max(...closes);
    const min = Math.min(...closes);
    closes.forEach((v, i) => {
      const [x, y] = points[i] as [number, number];
      if (i > 0) expect(x).toBeGreaterThan((points[i - 1] as [number, number])[0]);
      expect(Math.abs(y - (pad + ((max - v) / (max - min)) * (height - 2 * pad)))).toBeLessThanOrEqual(0.005);
    });
    expect(points[closes.indexOf(max)]?.[1]).toBe(pad);
    expect(points[closes.indexOf(min)]?.[1]).toBe(height - pad);
  });

  it('is cached for the snapshot cadence, with ETag and 304', async () => {
    const r = await get('/assets/sparklines/litecoin.svg');
    expect(r.headers['cache-control']).toBe(`public, max-age=${SPARKLINE_MAX_AGE}`);
    expect(SPARKLINE_MAX_AGE).toBe(60);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect((await get('/assets/sparklines/litecoin.svg')).body).toBe(r.body);
    const etag = String(r.headers.etag);
    expect((await get('/assets/sparklines/litecoin.svg', { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('an unknown coin: 404 COIN_NOT_FOUND', async () => {
    const r = await get('/assets/sparklines/not-a-coin.svg');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ error: { code: 'COIN_NOT_FOUND' } });
  });

  it('before the first aggregation 503 NOT_READY; a coin without history: a valid empty image', async () => {
    const db = await openMemoryDb();
    const engine = engineConfig({ staleAfterMs: 900_000 });
    const market = new MarketService({ db, engine, now: () => TEST_NOW });
    const bare = await createServer({ market, engine, dataset: () => ({ kind: 'live', notice: null }) });
    try {
      const before = await bare.inject({ url: '/assets/sparklines/litecoin.svg' });
      expect(before.statusCode).toBe(503);
      expect(before.json()).toMatchObject({ error: { code: 'NOT_READY' } });
      await market.ingest([]);
      const r = await bare.inject({ url: '/assets/sparklines/litecoin.svg' });
      expect(r.statusCode).toBe(200);
      const svg = parseXml(r.body);
      expect(svg.name).toBe('svg');
      expect(svg.attrs['aria-label']).toBe('Litecoin (LTC): no 7-day price history');
      expect(findAll(svg, 'polyline')).toEqual([]);
    } finally {
      await bare.close();
      await db.close();
    }
  });
});

/** Every string under `/assets/` anywhere in a JSON value. */
function assetUrls(v: unknown, out = new Set<string>()): Set<string> {
  if (typeof v === 'string' && v.startsWith('/assets/')) out.add(v);
  else if (Array.isArray(v)) for (const x of v) assetUrls(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) assetUrls(x, out);
  return out;
}

describe('no advertised image 404s', () => {
  it('every image URL of markets, coin, trending, search and categories answers 200 with an image', async () => {
    const urls = new Set<string>();
    for (const path of [
      '/v1/agg/coins/markets?vs_currency=usd&per_page=250',
      '/v1/agg/coins/litecoin?tickers=false',
      '/v1/agg/search/trending',
      '/v1/agg/search?query=coin',
      '/v1/agg/coins/categories',
    ]) {
      const r = await get(path);
      expect(r.statusCode, path).toBe(200);
      assetUrls(r.json(), urls);
    }
    const all = [...urls];
    expect(all.filter((u) => u.startsWith('/assets/coins/')).length).toBeGreaterThan(60);
    expect(all.filter((u) => u.startsWith('/assets/sparklines/')).length).toBeGreaterThan(0);
    for (const url of all) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type'], url).toMatch(/^image\//);
    }
  });

  it('the images are outside the access layer: no key, no keyless limit', async () => {
    expect((await get('/v1/agg/ping', {}, guarded)).statusCode).toBe(429);
    const checks = accessChecks;
    for (const url of ['/assets/coins/litecoin.svg', '/assets/sparklines/litecoin.svg']) {
      const r = await get(url, {}, guarded);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(accessChecks).toBe(checks);
  });
});

/**
 * `/docs/<file>` and `/graphql/schema.graphql` (src/server/docs/route.ts): the repository's documentation pages and
 * the graph's public schema, served by the product itself, as they are on disk, from a fixed list (no path is ever
 * taken from the request), with an ETag; the list is every `docs/*.md`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';
import { DOC_PAGES } from '../../src/server/docs/pages.ts';
import { bareServer, STAND_IN_ROUTER } from './bare-server.ts';
import type { BareServer } from './bare-server.ts';

let withGraph: BareServer;
let noGraph: BareServer;
beforeAll(async () => {
  [withGraph, noGraph] = await Promise.all([bareServer({ graph: STAND_IN_ROUTER }), bareServer()]);
});
afterAll(async () => {
  await withGraph?.close();
  await noGraph?.close();
});

const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

describe('/docs/<file>', () => {
  it('lists every page of docs/, and only those', () => {
    const onDisk = readdirSync(join(PROJECT_ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    expect(DOC_PAGES.map((p) => p.file).sort()).toEqual(onDisk.sort());
    expect(new Set(DOC_PAGES.map((p) => p.file)).size).toBe(DOC_PAGES.length);
  });

  it('serves each page as it is on disk, as text/markdown, never to be run', async () => {
    for (const { file } of DOC_PAGES) {
      const r = await noGraph.app.inject({ url: `/docs/${file}` });
      expect([file, r.statusCode, r.headers['content-type']]).toEqual([
        file,
        200,
        'text/markdown; charset=utf-8',
      ]);
      expect(r.rawPayload.equals(readFileSync(join(PROJECT_ROOT, 'docs', file)))).toBe(true);
      expect(r.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    }
  });

  it('a strong ETag; 304 on If-None-Match', async () => {
    const r = await noGraph.app.inject({ url: '/docs/price-api.md' });
    const etag = String(r.headers.etag);
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(r.headers['cache-control']).toBe('no-cache');
    const again = await noGraph.app.inject({ url: '/docs/price-api.md', headers: { 'if-none-match': etag } });
    expect([again.statusCode, again.body]).toEqual([304, '']);
  });

  it('anything else is 404 NOT_FOUND, with no file read from the path asked', async () => {
    for (const url of [
      '/docs/nothing.md',
      '/docs/README.md',
      '/docs/..%2FREADME.md',
      '/docs/..%2Fpackage.json',
      '/docs/%2e%2e%2fpackage.json',
      '/docs/..%5CREADME.md',
      '/docs/screenshots%2Fportal-key-usage.png',
      '/docs/PRICE-API.md',
      '/docs/price-api.md%00',
      '/docs/',
      '/docs/../package.json',
      '/docs/./price-api.md/',
    ]) {
      const r = await noGraph.app.inject({ url });
      expect([url, r.statusCode]).toEqual([url, 404]);
      expect(errorOf(r.body).code).toBe('NOT_FOUND');
      expect(r.body).not.toContain('coinwallet-platform');
    }
  });
});

describe('/graphql/schema.graphql', () => {
  it('serves schema/api.graphql (the schema the router serves) when the graph is mounted', async () => {
    const r = await withGraph.app.inject({ url: '/graphql/schema.graphql' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.body).toBe(readFileSync(join(PROJECT_ROOT, 'schema', 'api.graphql'), 'utf8'));
    expect(r.body).toMatch(/^type Query \{/m);
    expect(r.body).not.toContain('join__');
    const again = await withGraph.app.inject({
      url: '/graphql/schema.graphql',
      headers: { 'if-none-match': String(r.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('is not served without the graph', async () => {
    const r = await noGraph.app.inject({ url: '/graphql/schema.graphql' });
    expect([r.statusCode, errorOf(r.body).code]).toEqual([404, 'NOT_FOUND']);
  });
});

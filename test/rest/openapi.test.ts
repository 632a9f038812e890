/**
 * The OpenAPI documents as served (`/openapi.json`, every REST surface; `/v1/agg/openapi.json`, the price API's own):
 * both pass a standard validator (@readme/openapi-parser, as its README calls it), every route the server registers
 * is in the combined document unless docs/openapi.md names it as left out, every documented operation is served,
 * and a server without a surface has none of its paths. Real responses against the document:
 * `openapi-responses.test.ts`.
 */
import { validate, compileErrors } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyPath } from '../../src/rest/openapi/document.ts';
import { bareServer, STAND_IN_ROUTER } from '../server/bare-server.ts';
import { openapiServer, schemasOf } from './openapi-server.ts';
import type { Doc, OpenapiServer, RegisteredRoute } from './openapi-server.ts';

/** Routes left out of the document on purpose, and why (docs/openapi.md says the same). */
const NOT_DOCUMENTED: [RegExp, string][] = [
  [/^OPTIONS \*$/, 'the CORS preflight of every path'],
  [/^GET \/$/, 'the landing page (HTML, or JSON for Accept: application/json)'],
  [/^GET \/(portal|admin)$/, 'pages'],
  [/^GET \/(web\/[\w-]+\.js|widgets\/[\w-]+\.js|provider\.js)$/, 'browser scripts'],
  [/^GET \/docs\/:file$/, 'the documentation files'],
  [/^GET \/kits\/:file$/, 'the kits’ tarballs'],
  [/^GET \/assets\/(coins|sparklines)\/:file$/, 'images the price API links to'],
  [/^GET \/[\w/-]*\/coins\/:id\/$/, 'the trailing-slash alias of the price API’s /coins/{id}'],
  [/^(GET|POST) \/graphql$/, 'the graph: its schema is /graphql/schema.graphql'],
  [/^(PUT|DELETE|PATCH) \/graphql$/, 'the graph’s other methods: 405 METHOD_NOT_ALLOWED, Allow: GET, POST'],
  [/^GET \/graphql\/(health|schema\.graphql)$/, 'the graph’s health and schema'],
  [/^POST \/mcp$/, 'the graph as MCP tools (JSON-RPC over Streamable HTTP): docs/mcp.md'],
  [
    /^(GET|DELETE|PUT|PATCH) \/mcp$/,
    'MCP’s other methods: 405 METHOD_NOT_ALLOWED, Allow: POST (a stateless server)',
  ],
];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** `METHOD url` of each documented operation, in Fastify's path form. */
function documented(doc: Doc): Set<string> {
  return new Set(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.includes(m))
        .map((m) => `${m.toUpperCase()} ${fastifyPath(path)}`),
    ),
  );
}

/** Registered routes missing from `doc` and not left out on purpose (HEAD twins of a GET are the GET). */
function undocumented(doc: Doc, routes: RegisteredRoute[]): string[] {
  const ops = documented(doc);
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
  return routes
    .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
    .map((r) => `${r.method} ${r.url}`)
    .filter((r) => !ops.has(r) && !NOT_DOCUMENTED.some(([re]) => re.test(r)));
}

let s: OpenapiServer;
let doc: Doc;
let priceDoc: Doc;

beforeAll(async () => {
  s = await openapiServer();
  const r = await fetch(`${s.url}/openapi.json`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await r.json()) as Doc;
  priceDoc = (await (await fetch(`${s.url}/v1/agg/openapi.json`)).json()) as Doc;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('the documents pass a standard validator', () => {
  it.each([
    ['/openapi.json', () => doc],
    ['/v1/agg/openapi.json', () => priceDoc],
  ])('%s is valid OpenAPI 3.1', async (_path, get) => {
    const d = get();
    expect(d.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await validate(structuredClone(d) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.warnings).toEqual([]);
  });

  it('the validator is not vacuous: a broken copy fails', async () => {
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, unknown>> };
    (broken.paths['/api/names']?.['post'] as Record<string, unknown>)['parameters'] = [{ name: 'x' }];
    expect((await validate(broken as never)).valid).toBe(false);
    const dup = structuredClone(doc) as unknown as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    (dup.paths['/api/coins']?.['get'] as { operationId: string }).operationId = 'resolveName';
    expect((await validate(dup as never)).valid).toBe(false);
  });

  it('every schema compiles under strict JSON Schema 2020-12', () => {
    const v = schemasOf(doc);
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        for (const status of Object.keys(op.responses))
          expect(
            () => v.response(method.toUpperCase(), path, Number(status)),
            `${method} ${path} ${status}`,
          ).not.toThrow();
        expect(() => v.request(method.toUpperCase(), path), `${method} ${path} body`).not.toThrow();
      }
  });
});

describe('the schemas are not vacuous', () => {
  it('bodies of the wrong shape fail', () => {
    const v = schemasOf(doc);
    const check = (method: string, path: string, status: number, body: unknown): boolean => {
      const f = v.response(method, path, status);
      return f !== 'empty' && f(body);
    };
    const error = { error: { code: 'NAME_NOT_FOUND', message: 'no public name "x.coin" is registered' } };
    expect(check('GET', '/api/resolve/{name}', 404, error)).toBe(true);
    expect(check('GET', '/api/resolve/{name}', 404, { error: 'NAME_NOT_FOUND' })).toBe(false);
    expect(check('GET', '/api/resolve/{name}', 404, { error: { ...error.error, status: 404 } })).toBe(false);
    expect(check('GET', '/api/resolve/{name}', 404, { error: { code: 'not found', message: 'x' } })).toBe(
      false,
    );
    expect(check('GET', '/v1/agg/coins/{id}', 404, { ...error, detail: 'x' })).toBe(false);
    expect(check('POST', '/api/auth/session', 201, { token: 'cws_x', expiresAt: 1 })).toBe(false);
    expect(
      check('GET', '/api/resolve/{name}', 200, { name: 'a.coin', asset: 'XYZ', address: 'a', updatedAt: 1 }),
    ).toBe(false);
    expect(check('GET', '/api/dapps', 200, { page: 1, perPage: 50, total: 0, dapps: [{ id: 'x' }] })).toBe(
      false,
    );
    expect(check('GET', '/readyz', 503, { status: 'broken', part: 'product' })).toBe(false);
    expect(v.response('POST', '/api/auth/logout', 204)).toBe('empty');
    expect(v.request('POST', '/api/names')?.({ name: 'a.coin', extra: true })).toBe(false);
  });
});

describe('the combined document covers every REST surface', () => {
  it('has every surface, one error component, and the price API under its base path', () => {
    const paths = Object.keys(doc.paths);
    for (const prefix of [
      '/v1/agg/',
      '/api/resolve',
      '/api/names',
      '/api/partner/',
      '/api/auth/',
      '/api/account/',
    ])
      expect(
        paths.some((p) => p.startsWith(prefix)),
        prefix,
      ).toBe(true);
    for (const p of [
      '/api/admin/api-keys',
      '/api/admin/partners',
      '/api/dapps',
      '/api/coins',
      '/api/config',
      '/api/proof-of-reserves',
      '/healthz',
      '/livez',
      '/readyz',
      '/openapi.json',
      '/v1/agg/openapi.json',
    ])
      expect(paths, p).toContain(p);
    // The price API's paths are its own document's, moved under the base path.
    expect(paths.filter((p) => p.startsWith('/v1/agg/') && p !== '/v1/agg/openapi.json').sort()).toEqual(
      Object.keys(priceDoc.paths)
        .map((p) => `/v1/agg${p}`)
        .sort(),
    );
    // One error shape, referenced by every error response of every surface (the probes' 503 is their own body).
    const errorRefs = new Set<string>();
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item))
        for (const [status, res] of Object.entries(op.responses))
          if (Number(status) >= 400 && !op.tags?.includes('operator'))
            errorRefs.add(JSON.stringify(res.content?.['application/json']?.schema));
    expect([...errorRefs]).toEqual([JSON.stringify({ $ref: '#/components/schemas/ApiError' })]);
    expect(Object.keys(doc.components?.schemas ?? {}).filter((n) => /error/i.test(n))).toEqual(['ApiError']);
  });

  it('every route the server registers is documented, or left out on purpose', () => {
    expect(s.routes.length).toBeGreaterThan(90);
    expect(undocumented(doc, s.routes)).toEqual([]);
    // Not vacuous: a route of no surface is caught.
    expect(undocumented(doc, [...s.routes, { method: 'POST', url: '/api/names/:name/renew' }])).toEqual([
      'POST /api/names/:name/renew',
    ]);
  });

  it('every documented operation is a served route', () => {
    const served = new Set(s.routes.map((r) => `${r.method} ${r.url}`));
    expect([...documented(doc)].filter((op) => !served.has(op))).toEqual([]);
  });

  it('operation ids are unique; every operation says who may call it and has a success response', () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        ids.push(op.operationId ?? `${method} ${path}`);
        expect(Array.isArray(op.security), `${method} ${path}`).toBe(true);
        expect(
          Object.keys(op.responses).some((st) => st.startsWith('2')),
          `${method} ${path}`,
        ).toBe(true);
      }
    expect(ids.length).toBe(new Set(ids).size);
    expect(doc.paths['/api/names']?.['post']?.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/admin/api-keys']?.['get']?.security).toEqual([
      { session: [] },
      { operatorToken: [] },
    ]);
    expect(doc.paths['/api/partner/names']?.['post']?.security).toEqual([{ partnerId: [] }]);
    expect(doc.paths['/api/resolve/{name}']?.['get']?.security).toEqual([]);
    expect(doc.paths['/v1/agg/ping']?.['get']?.security?.[0]).toEqual({});
  });

  it('is served with an ETag, compressed on request, and answers 304', async () => {
    const r = await fetch(`${s.url}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = r.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    expect((await fetch(`${s.url}/openapi.json`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});

describe('a server lists only what it serves', () => {
  it('without accounts, names and bridge: the price API, the health check and the documents; the graph left out', async () => {
    const routes: RegisteredRoute[] = [];
    // The graph is mounted only for its routes to be listed: what it answers is not asked here.
    const bare = await bareServer({
      graph: STAND_IN_ROUTER,
      priceBase: '/v3/prices',
      beforeRoutes: (app) => {
        app.addHook('onRoute', (r) => {
          for (const method of [r.method].flat()) routes.push({ method, url: r.url });
        });
      },
    });
    try {
      const r = await bare.app.inject({ url: '/openapi.json' });
      expect(r.statusCode).toBe(200);
      const d = r.json() as Doc;
      expect((await validate(structuredClone(d) as never)).valid).toBe(true);
      const paths = Object.keys(d.paths);
      expect(paths.filter((p) => !p.startsWith('/v3/prices/'))).toEqual(['/healthz', '/openapi.json']);
      expect(paths).toContain('/v3/prices/openapi.json');
      expect(routes.map((x) => x.url)).toContain('/graphql');
      expect(undocumented(d, routes)).toEqual([]);
      // The unused components went with their surfaces.
      expect(Object.keys(d.components?.schemas ?? {})).toEqual(['ApiError']);
      expect(Object.keys(d.components?.securitySchemes ?? {})).not.toContain('session');
    } finally {
      await bare.close();
    }
  });
});

describe('the landing page links the document', () => {
  it('in its JSON and its HTML', async () => {
    const json = (await (await fetch(`${s.url}/`, { headers: { accept: 'application/json' } })).json()) as {
      links: Record<string, string>;
    };
    expect(json.links['openapiAll']).toBe('/openapi.json');
    expect(json.links['openapi']).toBe('/v1/agg/openapi.json');
    const html = await (await fetch(`${s.url}/`)).text();
    expect(html).toContain('href="/openapi.json"');
    expect(html).toContain('href="/v1/agg/openapi.json"');
  });
});

/**
 * Third-party GraphQL clients in Chromium (Debian's, through playwright-core), each set up as its README shows it in a
 * browser (`fixtures/clients-page.ts`, bundled with esbuild): urql, graphql-request, Apollo Client (`HttpLink`,
 * `BatchHttpLink`, the persisted-queries link, `@defer`), graphql-sse and graphql-ws, against the embedded graph on a
 * loopback port (`test/graph/support/clients-server.ts`), which also serves the page, so that page and graph share an
 * origin. What each request carried is noted by the server. The same clients in Node: `test/graph/clients.test.ts`.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { wallet } from '../accounts/harness.ts';
import { startClientsServer } from '../graph/support/clients-server.ts';
import type { ClientsServer } from '../graph/support/clients-server.ts';
import { launchChromium } from './support.ts';

const PAGE =
  '<!doctype html><meta charset="utf-8"><title>clients</title><script type="module" src="/clients.js"></script>';

let s: ClientsServer;
let browser: Browser;
let page: Page;
/** Errors the page did not handle (an uncaught abort would be one). */
const pageErrors: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'fixtures', 'clients-page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const js = bundle.outputFiles[0]?.text ?? '';
  s = await startClientsServer((app) => {
    app.get('/clients.html', async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
    app.get('/clients.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(js));
  });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${s.origin}/clients.html`);
  await page.waitForFunction(() => 'clients' in window);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

beforeEach(() => {
  s.seen.length = 0;
});

/** Runs `window.clients[name](url, ...args)` in the page. */
function run<T>(name: string, ...args: unknown[]): Promise<T> {
  type Clients = Record<string, (...x: unknown[]) => Promise<unknown>>;
  return page.evaluate(({ n, a }) => (window as unknown as { clients: Clients }).clients[n]?.(...a), {
    n: name,
    a: [s.url, ...args],
  }) as Promise<T>;
}

const LITECOIN = { coin: { id: 'litecoin', symbol: 'ltc' } };
const TYPED = { coin: { __typename: 'Coin', id: 'litecoin', symbol: 'ltc' } };

describe('clients in Chromium on their defaults', () => {
  it('urql: queries by GET, mutations by POST, @defer in parts', async () => {
    const r = await run<{
      query: { data: unknown; error: string | null };
      badCodes: unknown[];
      mutationError: string | null;
      deferred: { data: { coin: Record<string, unknown> }; hasNext: boolean; error: string | null }[];
    }>('urql', wallet().address);
    expect(r.query).toEqual({ data: TYPED, error: null });
    expect(r.badCodes).toEqual(['INVALID_COIN_ID']);
    expect(r.mutationError).toBeNull();
    expect(r.deferred[0]).toEqual({ data: TYPED, hasNext: true, error: null });
    expect(typeof r.deferred.at(-1)?.data.coin['price']).toBe('number');
    expect(s.seen).toEqual(['GET+text', 'GET+text', 'POST+text', 'GET+text']);
  });

  it('graphql-request: POST by default, GET in its GET mode', async () => {
    const r = await run<{ data: unknown; errorCodes: unknown[] }[]>('graphqlRequest');
    expect(r).toEqual([
      { data: LITECOIN, errorCodes: ['INVALID_PARAMETER'] },
      { data: LITECOIN, errorCodes: ['INVALID_PARAMETER'] },
    ]);
    expect(s.seen).toEqual(['POST+text', 'POST+text', 'GET+text', 'GET+text']);
  });

  it('Apollo Client: HttpLink, BatchHttpLink, persisted queries', async () => {
    expect(await run('apolloHttp')).toEqual(TYPED);
    expect(await run('apolloBatch')).toEqual([TYPED, true]);
    const [first, second] = await run<unknown[]>('apolloPersisted');
    expect(first).toEqual({ coin: { __typename: 'Coin', id: 'bitcoin', symbol: 'btc' } });
    expect(second).toEqual(first);
    expect(s.seen).toEqual(['POST+text', 'POST+text', 'GET', 'POST+text', 'GET']);
  });

  it('Apollo Client @defer: streaming, then complete', async () => {
    const states = await run<{ dataState: string; data: { coin: Record<string, unknown> } }[]>('apolloDefer');
    expect(states.find((x) => x.dataState === 'streaming')?.data).toEqual(TYPED);
    expect(states.at(-1)?.dataState).toBe('complete');
    expect(typeof states.at(-1)?.data.coin['price']).toBe('number');
  });

  it('graphql-sse: a query, a deferred query in parts, a subscription', async () => {
    const r = await run<{
      query: { data: unknown };
      parts: { hasNext?: boolean; data?: unknown; incremental?: { path: unknown[] }[] }[];
      first: { data: { prices: { id: string }[] } };
    }>('graphqlSse');
    expect(r.query.data).toEqual(LITECOIN);
    expect(r.parts[0]).toMatchObject({ data: LITECOIN, hasNext: true });
    expect(r.parts.at(-1)).toMatchObject({ hasNext: false, incremental: [{ path: ['coin'] }] });
    expect(r.first.data.prices.map((p) => p.id)).toEqual(['litecoin']);
  });

  it('graphql-ws: a query and a subscription', async () => {
    const r = await run<{ query: { data: unknown }; first: { data: { prices: { id: string }[] } } }>(
      'graphqlWs',
    );
    expect(r.query.data).toEqual(LITECOIN);
    expect(r.first.data.prices.map((p) => p.id)).toEqual(['litecoin']);
  });

  it('left nothing unhandled in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});

/**
 * Bursts wait; they are not refused: the whole product in this process (`startProduct`, demo data of 3 days, every
 * limit at its default) over real HTTP on loopback, asked what ordinary clients ask at once — a page's 20 requests
 * without a key (price API, `/api`, the graph), a free key's 32 — with Node's fetch, one connection per request.
 * Each burst is more than the caller's places in flight (keyless 6, free 8): the rest wait their turn
 * (`CONCURRENCY_QUEUE`) and every answer is a 200.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startProduct } from '../../src/start/product.ts';
import type { Product } from '../../src/start/product.ts';

const ADMIN_TOKEN = 'cwa_bursts-operator-token-0123456789';
let dir: string;
let product: Product | undefined;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cw-bursts-'));
  const cfg = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DEMO_DAYS: '3',
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN,
  });
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  product = await startProduct(cfg, { log: quiet });
  await product.ready;
  url = product.url;
  // A first start stores its demo history in the background once ready: the bursts come once it is stored.
  for (let h: unknown; h !== 'stored'; await new Promise((r) => setTimeout(r, 100)))
    h = ((await (await fetch(`${url}/healthz`)).json()) as { history?: unknown }).history;
}, 180_000);

afterAll(async () => {
  await product?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `n` requests sent at once; their statuses, and how many requests waited for a place meanwhile. */
async function burst(n: number, request: (i: number) => Promise<Response>) {
  const before = product?.access.access.waited() ?? 0;
  const responses = await Promise.all(Array.from({ length: n }, (_, i) => request(i)));
  // A status, or with the body when it is not a 200 (what went wrong, in the failure).
  const statuses = await Promise.all(
    responses.map(async (r) => {
      const body = await r.text();
      return r.status === 200 ? 200 : `${r.status} ${body.slice(0, 300)}`;
    }),
  );
  return { statuses, waited: (product?.access.access.waited() ?? 0) - before };
}

const graph = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });

const ok = (n: number) => Array.from({ length: n }, () => 200);

describe('bursts wait their turn', () => {
  it("a page's 20 requests at once without a key: price API, /api and the graph, all 200", async () => {
    const page = [
      (i: number) => fetch(`${url}/v1/agg/simple/price?ids=bitcoin,litecoin&vs_currencies=usd&i=${i}`),
      (i: number) => fetch(`${url}/v1/agg/coins/markets?vs_currency=usd&per_page=${i + 1}`),
      (i: number) => graph(`{ coins(first: ${i + 1}) { edges { node { id symbol price } } } }`),
      () => fetch(`${url}/api/coins`),
      () => fetch(`${url}/api/dapps`),
    ];
    const mixed = await burst(20, (i) => (page[i % page.length] as (i: number) => Promise<Response>)(i));
    expect(mixed.statuses).toEqual(ok(20));
    // The same page, each kind of request alone: 20 at once of the graph, of the price API, of /api.
    const graphOnly = await burst(20, (i) =>
      graph(`{ coin(id: "litecoin") { id price } b${i}: currencies }`),
    );
    expect(graphOnly.statuses).toEqual(ok(20));
    const rest = await burst(20, (i) =>
      fetch(`${url}/v1/agg/coins/markets?vs_currency=usd&per_page=${i + 1}`),
    );
    expect(rest.statuses).toEqual(ok(20));
    const api = await burst(20, () => fetch(`${url}/api/coins`));
    expect(api.statuses).toEqual(ok(20));
    // The bursts were more than the 6 places of a caller without a key: some requests waited their turn.
    expect(mixed.waited + graphOnly.waited + rest.waited).toBeGreaterThan(0);
  });

  it('32 requests at once of one free key, on the graph and on the price API: all 200', async () => {
    const made = await fetch(`${url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'free', approve: true, description: 'a dashboard' }),
    });
    expect(made.status).toBe(201);
    const key = ((await made.json()) as { key: string }).key;
    const withKey = { 'x-sp-api-key': key };
    const onGraph = await burst(32, (i) =>
      graph(`{ coins(first: ${(i % 10) + 1}) { edges { node { id price } } } }`, withKey),
    );
    expect(onGraph.statuses).toEqual(ok(32));
    const onRest = await burst(32, (i) =>
      fetch(`${url}/v1/agg/coins/markets?vs_currency=usd&per_page=${i + 1}`, { headers: withKey }),
    );
    expect(onRest.statuses).toEqual(ok(32));
    // More than the free plan's 8 places: some waited.
    expect(onGraph.waited + onRest.waited).toBeGreaterThan(0);
  });
});

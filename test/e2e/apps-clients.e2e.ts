/**
 * Issue 35, "Done when", with the example dapp (`examples/apps-dapp/`) and real clients against one product process
 * (`coinwallet serve`, demo data of 3 days) over loopback:
 *
 * - the client preset runs over the example's operations with the example's own configuration (`codegen.ts`), in both
 *   document modes: the ids are the same, and the committed `generated/` is what the preset writes (no drift);
 * - the example's build step publishes them with the CLI (`bin/coinwallet.js apps publish`, the app's publish token
 *   in `COINWALLET_PUBLISH_TOKEN`), and the owner switches the key to trusted-only over REST;
 * - Apollo Client (PersistedQueryLink, the preset's hash) and urql (the preset's documented persisted exchange) run
 *   the documents on their defaults; an arbitrary query with the same key is 400 PERSISTED_QUERY_NOT_IN_LIST;
 * - the example's page in Chromium, served from the app's listed origin, gets its data from the graph (GET and POST
 *   by documentId) and from the price API; the same page from another origin gets 403 ORIGIN_NOT_ALLOWED on both.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { cacheExchange, Client, fetchExchange } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_DIR } from '../../examples/apps-dapp/codegen.ts';
import type * as GeneratedModule from '../../examples/apps-dapp/generated/graphql.ts';
import { bundlePage, generateClient, PAGE_BUNDLE, publishDocuments } from '../../examples/apps-dapp/build.ts';
import { startDappServer } from '../../examples/apps-dapp/serve.ts';
import type { DappServer } from '../../examples/apps-dapp/serve.ts';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';
import { launchChromium } from '../browser/support.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import { post, testWallet } from '../support/wallet.ts';

type Generated = typeof GeneratedModule;

const ADMIN = 'apps-clients-e2e-admin-token-0123456789';
const APP = 'apps-dapp';
const dataDir = mkdtempSync(join(tmpdir(), 'cw-apps-clients-'));
// Inside the project (git-ignored): the generated TypeScript is imported by this test, through its own module graph.
mkdirSync(join(PROJECT_ROOT, '.vitest-tmp'), { recursive: true });
const genDir = mkdtempSync(join(PROJECT_ROOT, '.vitest-tmp', 'apps-clients-'));

let s: ServeProcess;
let key: string;
let listed: DappServer;
let other: DappServer;
let browser: Browser | undefined;
let embedded: Generated;
let manifest: Record<string, string>;

const GENERATED_FILES = ['graphql.ts', 'gql.ts', 'index.ts', 'persisted-documents.json'];
const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

/** A JSON call to the product with the session or the operator's token. */
async function call(method: string, path: string, token: string, body?: unknown) {
  const r = await fetch(s.url + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  s = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '3', LOG_LEVEL: 'warn', ADMIN_TOKEN: ADMIN }, 60_000);
  // The codegen runs, and the page is bundled, while the product warms up.
  await Promise.all([
    generateClient(join(genDir, 'replace'), 'replaceDocumentWithHash'),
    generateClient(join(genDir, 'embed'), 'embedHashInDocument'),
  ]);
  await bundlePage();
  [listed, other] = await Promise.all([startDappServer({ port: 0 }), startDappServer({ port: 0 })]);
  await waitForStatus(`${s.url}/healthz`, 200, 180_000);

  // A wallet signs in and requests a key; the operator approves it; the wallet registers the app with the page's origin.
  const session = await testWallet().signIn(s.url);
  const k = (await post(s.url, '/api/account/api-keys', { plan: 'free', description: 'apps dapp' }, session))
    .body as { key: string; id: string };
  key = k.key;
  expect((await call('POST', `/api/admin/api-keys/${k.id}/approve`, ADMIN, {})).status).toBe(200);
  const app = await call('POST', '/api/account/apps', session, {
    name: APP,
    origins: [listed.origin],
    keys: [k.id],
  });
  expect(app.status).toBe(201);

  // The example's publish step: `coinwallet apps publish --activate` with the publish token, as CI runs it.
  const published = await publishDocuments({
    app: APP,
    file: join(genDir, 'replace', 'persisted-documents.json'),
    env: { COINWALLET_PUBLISH_TOKEN: app.body.publishToken as string, COINWALLET_URL: s.url },
  });
  expect(published, published.output).toMatchObject({ outcome: 'published' });

  const set = await call('PUT', `/api/account/apps/${APP}/keys/${k.id}`, session, {
    documents: 'trusted-only',
  });
  expect(set.status).toBe(200);

  manifest = JSON.parse(read(join(genDir, 'replace'), 'persisted-documents.json')) as Record<string, string>;
  embedded = (await import(pathToFileURL(join(genDir, 'embed', 'graphql.ts')).href)) as Generated;
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await listed?.close();
  await other?.close();
  await s?.stop('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(genDir, { recursive: true, force: true });
});

describe('the client preset over the example', () => {
  it('writes the committed generated/ byte for byte, and the same ids in both document modes', () => {
    for (const f of GENERATED_FILES) expect(read(join(genDir, 'replace'), f), f).toBe(read(GENERATED_DIR, f));
    expect(read(join(genDir, 'embed'), 'persisted-documents.json')).toBe(
      read(GENERATED_DIR, 'persisted-documents.json'),
    );
    const hashOf = (doc: unknown) => (doc as { __meta__: { hash: string } }).__meta__.hash;
    expect(Object.keys(manifest)).toEqual([
      hashOf(embedded.DappPricesDocument),
      hashOf(embedded.DappMarketDocument),
    ]);
    // The page's bundle carries the ids and no query text.
    const bundle = readFileSync(PAGE_BUNDLE, 'utf8');
    for (const id of Object.keys(manifest)) expect(bundle).toContain(id);
    expect(bundle).not.toMatch(/query Dapp/);
  });
});

describe('trusted-only key: clients on their defaults', () => {
  it("Apollo Client with its persisted-queries link (the preset's hash) runs the documents", async () => {
    const link = new PersistedQueryLink({
      generateHash: (document) => (document as unknown as { __meta__: { hash: string } }).__meta__.hash,
    }).concat(new HttpLink({ uri: `${s.url}/graphql`, headers: { 'x-sp-api-key': key } }));
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const prices = await client.query({
      query: embedded.DappPricesDocument,
      variables: { ids: ['litecoin', 'dogecoin'], currency: 'usd' },
    });
    expect(prices.error).toBeUndefined();
    expect(prices.data?.coins.edges.map((e) => e.node.id).sort()).toEqual(['dogecoin', 'litecoin']);
    expect(prices.data?.coins.edges[0]?.node.price).toEqual(expect.any(Number));
    const market = await client.query({ query: embedded.DappMarketDocument, variables: { currency: 'usd' } });
    expect(market.error).toBeUndefined();
    expect(market.data?.global.activeCryptocurrencies).toBeGreaterThan(0);
  });

  it("urql with the preset's documented persisted exchange runs the documents (GET by hash)", async () => {
    const client = new Client({
      url: `${s.url}/graphql`,
      fetchOptions: { headers: { 'x-sp-api-key': key } },
      exchanges: [
        cacheExchange,
        persistedExchange({
          enforcePersistedQueries: true,
          enableForMutation: true,
          generateHash: (_, document) =>
            Promise.resolve((document as unknown as { __meta__: { hash: string } }).__meta__.hash),
        }),
        fetchExchange,
      ],
    });
    const prices = await client
      .query(embedded.DappPricesDocument, { ids: ['litecoin'], currency: 'eur' })
      .toPromise();
    expect(prices.error).toBeUndefined();
    expect(prices.data?.coins.edges[0]?.node).toMatchObject({ id: 'litecoin', price: expect.any(Number) });
    const market = await client.query(embedded.DappMarketDocument, { currency: 'usd' }).toPromise();
    expect(market.error).toBeUndefined();
    expect(market.data?.global.activeCryptocurrencies).toBeGreaterThan(0);

    // The same client without the persisted exchange sends the query text: not a published document.
    const plain = new Client({
      url: `${s.url}/graphql`,
      fetchOptions: { headers: { 'x-sp-api-key': key } },
      exchanges: [cacheExchange, fetchExchange],
    });
    const refused = await plain.query(embedded.DappMarketDocument, { currency: 'usd' }).toPromise();
    expect(refused.error?.graphQLErrors[0]?.extensions['code']).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('an arbitrary query with the same key is 400 PERSISTED_QUERY_NOT_IN_LIST', async () => {
    const r = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
      body: JSON.stringify({ query: '{ global { activeCryptocurrencies } }' }),
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({
      errors: [{ extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }],
    });
  });

  it('a document by GET is cacheable: ETag and Cache-Control, 304 on If-None-Match', async () => {
    const [id] = Object.keys(manifest);
    const url = `${s.url}/graphql?documentId=${encodeURIComponent(id ?? '')}&variables=${encodeURIComponent('{"ids":["litecoin"]}')}`;
    const a = await fetch(url, { headers: { 'x-sp-api-key': key } });
    expect(a.status).toBe(200);
    const etag = a.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    expect(a.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const b = await fetch(url, { headers: { 'x-sp-api-key': key, 'if-none-match': etag } });
    expect(b.status).toBe(304);
  });
});

describe('the example page in Chromium', () => {
  /** Opens the page from `origin` against the product with the key; its three panels once they are done. */
  async function open(origin: string) {
    const page = await browser!.newPage();
    try {
      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.url().startsWith(`${s.url}/graphql`) && r.method() !== 'OPTIONS')
          sent.push(r.method() === 'GET' ? new URL(r.url()).search : (r.postData() ?? ''));
      });
      const q = new URLSearchParams({ api: s.url, key });
      await page.goto(`${origin}/?${q}`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      const panel = async (id: string) => ({
        status: await page.getAttribute(`#${id}`, 'data-status'),
        code: await page.getAttribute(`#${id}`, 'data-code'),
        text: (await page.textContent(`#${id} .result`)) ?? '',
      });
      return {
        prices: await panel('prices'),
        market: await panel('market'),
        rest: await panel('rest'),
        sent,
      };
    } finally {
      await page.close();
    }
  }

  it('from the listed origin: the graph (GET and POST by documentId) and REST answer', async () => {
    const r = await open(listed.origin);
    expect(r.prices, r.prices.text).toMatchObject({ status: '200', code: 'ok' });
    expect(r.prices.text).toMatch(/LTC \$/);
    expect(r.market, r.market.text).toMatchObject({ status: '200', code: 'ok' });
    expect(r.rest, r.rest.text).toMatchObject({ status: '200', code: 'ok' });
    // Only ids went out: no query text in any graph request.
    expect(r.sent).toHaveLength(2);
    for (const sent of r.sent) {
      expect(sent).toContain('documentId');
      expect(sent).not.toMatch(/query|coins\(/);
    }
  });

  it('from another origin: 403 ORIGIN_NOT_ALLOWED on the graph and on REST', async () => {
    const r = await open(other.origin);
    for (const p of [r.prices, r.market, r.rest])
      expect(p, p.text).toMatchObject({ status: '403', code: 'ORIGIN_NOT_ALLOWED' });
  });
});

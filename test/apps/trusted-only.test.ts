/**
 * Apps end to end on the whole product in this process (`startProduct`, demo data of 3 days) over real HTTP on
 * loopback: a wallet signs in, requests a key (approved by the operator), registers an app with an allowed origin,
 * publishes the committed client's persisted-documents.json with the CLI (`coinwallet apps publish`, its publish
 * token), switches the key to trusted-only; then the graph runs a listed document by `documentId` (POST and GET) and
 * by its identical body, refuses any other with 400 PERSISTED_QUERY_NOT_IN_LIST, and an unlisted browser origin gets
 * 403 ORIGIN_NOT_ALLOWED on the graph and on REST.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GlobalDocument } from '../../clients/graph/generated/graphql.ts';
import { snakeCase } from '../../router/mcp/tools.ts';
import { runCli } from '../support/cli.ts';
import { loadConfig } from '../../src/config.ts';
import { startProduct } from '../../src/start/product.ts';
import type { Product } from '../../src/start/product.ts';
import { wallet } from '../accounts/harness.ts';

const ADMIN_TOKEN = 'cwa_apps-operator-token-0123456789';
const MANIFEST_FILE = 'clients/graph/generated/persisted-documents.json';
const DOCS = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')) as Record<string, string>;
const idOf = (name: string): string => {
  const id = Object.keys(DOCS).find((k) => DOCS[k]?.startsWith(`query ${name}(`));
  if (!id) throw new Error(`no query ${name} in ${MANIFEST_FILE}`);
  return id;
};
const ALLOWED = 'https://dapp.example';

let dir: string;
let product: Product | undefined;
let url: string;
let session: string;
let key: string;
let keyId: string;
let publishToken: string;

async function json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/** `coinwallet …` in this process: exit code and what it wrote to stderr. */
async function cli(argv: string[]): Promise<{ code: number; err: string }> {
  const { code, err } = await runCli(argv);
  return { code, err };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cw-apps-'));
  const cfg = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DEMO_DAYS: '3',
    LOG_LEVEL: 'silent',
    SHED_LAG_MS: '0',
    ADMIN_TOKEN,
  });
  product = await startProduct(cfg, {});
  await product.ready;
  url = product.url;

  const w = wallet();
  const c = await json('POST', '/api/auth/challenge', { address: w.address });
  const s = await json('POST', '/api/auth/session', {
    address: w.address,
    signature: w.sign(c.body.challenge as string),
    nonce: c.body.nonce,
  });
  session = s.body.token as string;
  const auth = { authorization: `Bearer ${session}` };
  const k = await json('POST', '/api/account/api-keys', { plan: 'free', description: 'my dapp' }, auth);
  key = k.body.key as string;
  keyId = k.body.id as string;
  const approved = await json(
    'POST',
    `/api/admin/api-keys/${keyId}/approve`,
    {},
    {
      authorization: `Bearer ${ADMIN_TOKEN}`,
    },
  );
  expect(approved.status).toBe(200);
  const app = await json(
    'POST',
    '/api/account/apps',
    { name: 'my-dapp', origins: [ALLOWED], keys: [keyId] },
    auth,
  );
  expect(app.status).toBe(201);
  publishToken = app.body.publishToken as string;
}, 180_000);

afterAll(async () => {
  await product?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const graph = (body: unknown, headers: Record<string, string> = {}) =>
  json('POST', '/graphql', body, { 'x-sp-api-key': key, ...headers });

describe('publish with the CLI, then trusted-only', () => {
  it('coinwallet apps publish: exit 0; the same version again: exit 1 naming VERSION_EXISTS', async () => {
    vi.stubEnv('COINWALLET_PUBLISH_TOKEN', publishToken);
    try {
      const args = ['apps', 'publish', '--app', 'my-dapp', '--version', '1.0.0', '--activate', '--url', url];
      expect(await cli([...args, MANIFEST_FILE])).toEqual({ code: 0, err: '' });
      const again = await cli([...args, MANIFEST_FILE]);
      expect(again.code).toBe(1);
      expect(again.err).toContain('409 VERSION_EXISTS');
    } finally {
      vi.unstubAllEnvs();
    }
    const view = await json('GET', '/api/account/apps/my-dapp', undefined, {
      authorization: `Bearer ${session}`,
    });
    expect(view.body.versions).toMatchObject([
      { version: '1.0.0', active: true, documents: Object.keys(DOCS).length },
    ]);
  });

  it('before trusted-only, any query runs with the key', async () => {
    expect((await graph({ query: '{ __typename }' })).status).toBe(200);
  });

  it('trusted-only: listed documents run by documentId (POST, GET) and by identical body; others are refused', async () => {
    const set = await fetch(`${url}/api/account/apps/my-dapp/keys/${keyId}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
      body: JSON.stringify({ documents: 'trusted-only' }),
    });
    expect(set.status).toBe(200);

    const post = await graph({ documentId: idOf('Global'), variables: { currency: 'usd' } });
    expect(post.status).toBe(200);
    expect(post.body.data).toMatchObject({ global: { activeCryptocurrencies: expect.any(Number) } });

    const vars = encodeURIComponent(JSON.stringify({ ids: ['bitcoin'] }));
    const get = await fetch(
      `${url}/graphql?documentId=${encodeURIComponent(idOf('Prices'))}&variables=${vars}`,
      {
        headers: { 'x-sp-api-key': key },
      },
    );
    expect(get.status).toBe(200);
    expect(((await get.json()) as { data?: unknown }).data).toMatchObject({
      coins: { edges: expect.any(Array) },
    });

    expect((await graph({ query: DOCS[idOf('Global')] })).status).toBe(200);

    for (const refused of [
      { query: '{ __typename }' },
      { query: `${DOCS[idOf('Global')]} ` }, // not identical
      { documentId: `sha256:${'0'.repeat(64)}` },
    ]) {
      const r = await graph(refused);
      expect(r.status, JSON.stringify(refused)).toBe(400);
      expect(r.body.errors).toMatchObject([{ extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }]);
    }
  });

  it("Apollo Client's persisted-queries link with the preset's hash (generateHash, GET) runs; its other queries do not", async () => {
    // As graphql-codegen's client preset documents it for Apollo: the hash the preset embedded in each document.
    const persisted = new PersistedQueryLink({
      generateHash: (doc) => (doc as unknown as { __meta__: { hash: string } }).__meta__.hash,
      useGETForHashedQueries: true,
    });
    const http = new HttpLink({ uri: `${url}/graphql`, headers: { 'x-sp-api-key': key } });
    const client = new ApolloClient({ link: persisted.concat(http), cache: new InMemoryCache() });
    const r = await client.query({ query: GlobalDocument, variables: { currency: 'usd' } });
    expect(r.error).toBeUndefined();
    expect(r.data?.global?.activeCryptocurrencies).toEqual(expect.any(Number));
    const plain = new ApolloClient({ link: http, cache: new InMemoryCache() });
    const refused = await plain
      .query({ query: gql('{ global { activeCryptocurrencies } }') })
      .catch((e: unknown) => e);
    expect(JSON.stringify(refused)).toContain('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('allowed origins: a listed Origin runs, another gets 403 ORIGIN_NOT_ALLOWED on the graph and on REST', async () => {
    const doc = { documentId: idOf('Global') };
    expect((await graph(doc, { origin: ALLOWED })).status).toBe(200);
    const g = await graph(doc, { origin: 'https://evil.example' });
    expect(g.status).toBe(403);
    expect(g.body.errors).toMatchObject([{ extensions: { code: 'ORIGIN_NOT_ALLOWED' } }]);

    const rest = (origin?: string) =>
      fetch(`${url}/v1/agg/ping`, { headers: { 'x-sp-api-key': key, ...(origin ? { origin } : {}) } });
    expect((await rest()).status).toBe(200);
    expect((await rest(ALLOWED)).status).toBe(200);
    const refused = await rest('https://evil.example');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'ORIGIN_NOT_ALLOWED' } });
  });

  it("MCP: a trusted-only key (sent as Bearer) sees its app's documents as tools, nothing else, and runs them", async () => {
    const client = new Client({ name: 'apps-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', url), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const queries = Object.values(DOCS).flatMap((d) =>
        [...d.matchAll(/\bquery (\w+)/g)].map((m) => snakeCase(m[1] as string)),
      );
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...new Set(queries)].sort());
      expect(tools.map((t) => t.name)).not.toContain('execute');
      const r = await client.callTool({ name: 'global', arguments: { currency: 'usd' } });
      expect(r.structuredContent).toMatchObject({ global: { activeCryptocurrencies: expect.any(Number) } });
      await expect(
        client.callTool({ name: 'execute', arguments: { query: '{ __typename }' } }),
      ).rejects.toMatchObject({
        data: { code: 'UNKNOWN_TOOL' },
      });
    } finally {
      await client.close();
    }
  });
});

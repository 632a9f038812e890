/**
 * Usage per operation end to end (issue 35 item 3, issue 36 item 4) on the whole product in this process
 * (`startProduct`, demo data of 3 days) over real HTTP on loopback: an app's key runs a trusted document by
 * `documentId` (two answered, one with a GraphQL error, one refused for its browser origin) and calls an MCP tool
 * twice; then the graph (`me { apps … usage }`, `apiKey(id) { operations }`) and REST
 * (`GET /api/account/apps/{app}/usage`) show exactly those counts. The graph writes the process's pending counts
 * before it reads, so nothing waits for the recorder's 5-second flush.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startProduct } from '../../src/start/product.ts';
import type { Product } from '../../src/start/product.ts';
import { wallet } from '../accounts/harness.ts';

const ADMIN_TOKEN = 'cwa_usage-operator-token-0123456789';
const DOCS = JSON.parse(readFileSync('clients/graph/generated/persisted-documents.json', 'utf8')) as Record<
  string,
  string
>;
const idOf = (name: string): string => {
  const id = Object.keys(DOCS).find((k) => DOCS[k]?.startsWith(`query ${name}(`));
  if (!id) throw new Error(`no query ${name} in the manifest`);
  return id;
};
const ALLOWED = 'https://dapp.example';

let dir: string;
let product: Product | undefined;
let url: string;
let session: string;
let key: string;
let keyId: string;

async function json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}
const owner = () => ({ authorization: `Bearer ${session}` });
const graph = (body: unknown, headers: Record<string, string> = {}) =>
  json('POST', '/graphql', body, { 'x-sp-api-key': key, ...headers });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cw-usage-'));
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
  const k = await json('POST', '/api/account/api-keys', { plan: 'free', description: 'usage' }, owner());
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
    owner(),
  );
  expect(app.status).toBe(201);
  const published = await fetch(`${url}/api/account/apps/my-dapp/versions`, {
    method: 'POST',
    headers: { ...owner(), 'content-type': 'application/json' },
    body: JSON.stringify({ version: '1.0.0', activate: true, manifest: DOCS }),
  });
  expect(published.status, await published.text()).toBe(201);
  const policy = await json(
    'PUT',
    `/api/account/apps/my-dapp/keys/${keyId}`,
    { documents: 'trusted-only' },
    owner(),
  );
  expect(policy.status).toBe(200);
}, 180_000);

afterAll(async () => {
  await product?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Counts {
  requests: number;
  errors: number;
  refusals: number;
  cost: number;
}
const ZERO: Counts = { requests: 0, errors: 0, refusals: 0, cost: 0 };

describe('usage per document and per tool', () => {
  it('the graph and REST show exactly the traffic by documentId and the MCP tool calls', async () => {
    const prices = idOf('Prices');
    const global = idOf('Global');
    let pricesCost = 0;
    for (let i = 0; i < 2; i++) {
      const ok = await graph({ documentId: prices, variables: { ids: ['bitcoin'] } });
      expect(ok.status).toBe(200);
      expect(ok.body.errors).toBeUndefined();
      pricesCost += (ok.body.extensions as { cost: { actual: number } }).cost.actual;
    }
    expect(pricesCost).toBeGreaterThan(0);
    // Admitted, then refused by the variables' coercion: a GraphQL error beside no data.
    const failed = await graph({ documentId: prices, variables: { ids: ['bitcoin'], currency: 7 } });
    expect(failed.body.errors).toMatchObject([{ extensions: { code: 'BAD_USER_INPUT' } }]);
    const refused = await graph(
      { documentId: prices, variables: { ids: ['bitcoin'] } },
      { origin: 'https://evil.example' },
    );
    expect(refused.status).toBe(403);

    // The trusted-only key's `global` tool runs the Global document's body: counted under both.
    let toolCost = 0;
    const client = new Client({ name: 'usage-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', url), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      for (let i = 0; i < 2; i++) {
        const r = await client.callTool({ name: 'global', arguments: { currency: 'usd' } });
        expect(r.isError).toBeFalsy();
        toolCost += Number(r._meta?.['cost']);
      }
    } finally {
      await client.close();
    }
    expect(toolCost).toBeGreaterThan(0);

    const expected: Record<string, Counts> = {
      [prices]: { requests: 4, errors: 1, refusals: 1, cost: pricesCost },
      [global]: { requests: 2, errors: 0, refusals: 0, cost: toolCost },
    };

    // The whole tree, read with the session alone: within the keyless cost ceiling (5 versions × 20 documents).
    const read = await json(
      'POST',
      '/graphql',
      {
        query: `query ($key: ID!) {
          me { apps { name versions { version documents { id name usage { requests errors refusals cost } } } } }
          apiKey(id: $key) { operations { kind name documentId app version requests errors refusals cost } }
        }`,
        variables: { key: keyId },
      },
      owner(),
    );
    expect(read.status).toBe(200);
    expect(read.body.errors).toBeUndefined();
    const data = read.body.data as {
      me: {
        apps: {
          name: string;
          versions: { version: string; documents: { id: string; name: string; usage: Counts }[] }[];
        }[];
      };
      apiKey: { operations: (Counts & Record<string, unknown>)[] };
    };
    const [app] = data.me.apps;
    expect(app?.name).toBe('my-dapp');
    const documents = app?.versions[0]?.documents ?? [];
    expect(documents).toHaveLength(Object.keys(DOCS).length);
    for (const d of documents) expect(d.usage, d.name).toEqual(expected[d.id] ?? ZERO);

    expect(data.apiKey.operations).toEqual([
      { kind: 'TOOL', name: 'global', documentId: null, app: null, version: null, ...expected[global] },
      {
        kind: 'DOCUMENT',
        name: 'Prices',
        documentId: prices,
        app: 'my-dapp',
        version: '1.0.0',
        ...expected[prices],
      },
      {
        kind: 'DOCUMENT',
        name: 'Global',
        documentId: global,
        app: 'my-dapp',
        version: '1.0.0',
        ...expected[global],
      },
    ]);

    // REST reads the store, which the graph's read has just written to.
    const rest = await json('GET', '/api/account/apps/my-dapp/usage?days=30', undefined, owner());
    expect(rest.status).toBe(200);
    const restDocs = rest.body.documents as (Counts & {
      documentId: string;
      version: string;
      name: string;
    })[];
    expect(restDocs.map((d) => d.documentId).sort()).toEqual(documents.map((d) => d.id).sort());
    for (const { documentId, version, name, ...counts } of restDocs) {
      expect(version).toBe('1.0.0');
      expect(counts, name).toEqual(expected[documentId] ?? ZERO);
    }
  });
});

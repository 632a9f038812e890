/**
 * The graph as MCP tools (issue 36) in the real product, driven by the SDK's own client as its README shows it:
 * over Streamable HTTP (`/mcp`) and over stdio (`coinwallet mcp --url`). The tools' answers are checked against the
 * REST APIs; a tool call counts against the key's budget; a revoked key gets 401.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import { get, linkDogeAddress, post, testWallet } from '../support/wallet.ts';

const BIN = join(PROJECT_ROOT, 'bin', 'coinwallet.js');
const dataDir = mkdtempSync(join(tmpdir(), 'cw-mcp-'));
const ADMIN = 'mcp-e2e-admin-token-0123456789abcd';
let s: ServeProcess;
const clients: Client[] = [];

beforeAll(async () => {
  s = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '3', LOG_LEVEL: 'warn', ADMIN_TOKEN: ADMIN }, 60_000);
  await waitForStatus(`${s.url}/healthz`, 200, 180_000);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await s?.stop('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

/** `coinwallet keys …` against the running server: its JSON output. */
function keys(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [BIN, 'keys', ...args, '--url', s.url],
      { env: { ...process.env, ADMIN_TOKEN: ADMIN }, timeout: 60_000 },
      (err, out, errOut) =>
        err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(JSON.parse(out || '{}')),
    ),
  );
}

/** An SDK client over Streamable HTTP with `key` in our key header (none: keyless). */
async function httpClient(key?: string): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', s.url), {
      requestInit: { headers: key ? { 'x-sp-api-key': key } : {} },
    }),
  );
  clients.push(client);
  return client;
}

const CURATED = [
  'prices',
  'markets',
  'coin',
  'coin_chart',
  'ohlc',
  'search',
  'trending',
  'global',
  'resolve_name',
  'reverse_name',
  'proof_of_reserves',
];

describe('MCP over Streamable HTTP', () => {
  let key: string;
  let client: Client;
  beforeAll(async () => {
    key = (await keys(['create', '--plan', 'free', '--approve'])).key as string;
    client = await httpClient(key);
  });

  it('lists the curated operations as tools, with input schemas from their variables, and discovery for a key', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...CURATED, 'execute', 'search_schema'].sort());
    const chart = tools.find((t) => t.name === 'coin_chart');
    expect(chart?.description).toMatch(/price chart of a coin/);
    expect(chart?.inputSchema).toMatchObject({
      type: 'object',
      required: ['id', 'days'],
      properties: { days: { type: 'integer' }, currency: { type: 'string', default: 'usd' } },
    });
    expect(tools.some((t) => /register|link/i.test(t.name))).toBe(false);
    const keyless = await httpClient();
    expect((await keyless.listTools()).tools.map((t) => t.name).sort()).toEqual([...CURATED].sort());
  });

  it('a price tool answers what the price API answers, with its cost in _meta', async () => {
    const rest = async () =>
      (await get(s.url, '/v1/agg/simple/price?ids=litecoin,dogecoin&vs_currencies=eur')).body as Record<
        string,
        { eur: number }
      >;
    const before = await rest();
    const r = await client.callTool({
      name: 'prices',
      arguments: { ids: ['litecoin', 'dogecoin'], currency: 'eur' },
    });
    const after = await rest();
    expect(r.isError).toBeFalsy();
    expect(r._meta?.cost).toBeGreaterThan(0);
    const nodes = (r.structuredContent as { coins: { edges: { node: { id: string; price: number } }[] } })
      .coins.edges;
    expect(nodes.map((e) => e.node.id).sort()).toEqual(['dogecoin', 'litecoin']);
    for (const { node } of nodes) expect([before[node.id]?.eur, after[node.id]?.eur]).toContain(node.price);
  });

  it('a name-resolution tool answers what /api/resolve answers', async () => {
    const owner = testWallet();
    const token = await owner.signIn(s.url);
    const label = `mcp-${randomBytes(3).toString('hex')}`;
    expect((await post(s.url, '/api/names', { name: `${label}.coin` }, token)).status).toBe(201);
    const linked = await linkDogeAddress(s.url, token, `${label}.coin`);
    expect(linked.status).toBeLessThan(300);
    const rest = (await get(s.url, `/api/resolve/${label}.coin?asset=DOGE`)).body as { address: string };
    expect(rest.address).toBe(linked.address);
    const r = await client.callTool({
      name: 'resolve_name',
      arguments: { name: `${label}.coin`, asset: 'DOGE' },
    });
    expect(r.structuredContent).toMatchObject({
      nameResolution: {
        __typename: 'NameResolution',
        name: `${label}.coin`,
        asset: 'DOGE',
        address: linked.address,
      },
    });
    const none = await client.callTool({
      name: 'resolve_name',
      arguments: { name: `${label}.coin`, asset: 'LTC' },
    });
    const restNone = (await get(s.url, `/api/resolve/${label}.coin?asset=LTC`)).body as {
      error: { code: string };
    };
    expect(none.structuredContent).toMatchObject({ nameResolution: { code: restNone.error.code } });
  });

  it('unknown tools and bad arguments are JSON-RPC errors with our code; mutations never run through execute', async () => {
    await expect(client.callTool({ name: 'register_name', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      data: { code: 'UNKNOWN_TOOL' },
    });
    await expect(
      client.callTool({ name: 'coin_chart', arguments: { id: 'litecoin' } }),
    ).rejects.toMatchObject({
      code: -32602,
      data: { code: 'BAD_ARGUMENTS' },
    });
    await expect(
      client.callTool({ name: 'coin_chart', arguments: { id: 'litecoin', days: 'seven' } }),
    ).rejects.toMatchObject({ data: { code: 'BAD_ARGUMENTS' } });
    const mutation = await client.callTool({
      name: 'execute',
      arguments: { query: 'mutation { registerName(name: "x.coin") { name } }' },
    });
    expect(mutation).toMatchObject({ isError: true, _meta: { code: 'OPERATION_NOT_ALLOWED' } });
  });

  it('discovery: search_schema finds fields with their cost; execute runs a query and returns its cost', async () => {
    const found = await client.callTool({ name: 'search_schema', arguments: { words: 'chart' } });
    const fields = (found.structuredContent as { fields: { coordinate: string; cost: unknown }[] }).fields;
    expect(fields.map((f) => f.coordinate)).toContain('Coin.chart');
    const r = await client.callTool({
      name: 'execute',
      arguments: { query: 'query($id: ID!) { coin(id: $id) { id symbol } }', variables: { id: 'litecoin' } },
    });
    expect(r.structuredContent).toEqual({
      coin: { id: 'litecoin', symbol: expect.stringMatching(/^ltc$/i) },
    });
    expect(r._meta?.cost).toBeGreaterThan(0);
    const bad = await client.callTool({ name: 'execute', arguments: { query: '{ coin { nope } }' } });
    expect(bad).toMatchObject({ isError: true });
    expect(String((bad.content as { text: string }[])[0]?.text)).toMatch(/^[A-Z_]+: /);
  });

  it('resources: the API schema, the methodology, the plans', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'coinwallet://schema/api.graphql',
      'coinwallet://docs/methodology.md',
      'coinwallet://docs/plans-and-limits.md',
    ]);
    const sdl = await client.readResource({ uri: 'coinwallet://schema/api.graphql' });
    expect(String((sdl.contents[0] as { text: string }).text)).toContain('type Coin');
  });

  it('each tool call is one request of the key: over its budget the next is refused 429; a revoked key gets 401', async () => {
    const limited = await keys(['create', '--plan', 'enterprise', '--limit', '4', '--approve']);
    const c = await httpClient(limited.key as string);
    for (let i = 0; i < 4; i++) {
      const r = await c.callTool({ name: 'global', arguments: {} });
      expect(r.isError, JSON.stringify(r)).toBeFalsy();
    }
    // The fifth call is refused by the budget, as a tool error the agent reads; the next request to /mcp is then
    // refused before any MCP is read (HTTP 429, as the graph does).
    expect(await c.callTool({ name: 'global', arguments: {} })).toMatchObject({
      isError: true,
      _meta: { code: 'RATE_LIMITED', status: 429, retryAfterSeconds: expect.any(Number) },
    });
    await expect(c.listTools()).rejects.toThrow(/RATE_LIMITED/);

    const doomed = await keys(['create', '--plan', 'free', '--approve']);
    const d = await httpClient(doomed.key as string);
    expect((await d.callTool({ name: 'global', arguments: {} })).isError).toBeFalsy();
    await keys(['revoke', doomed.id as string]);
    await expect(d.callTool({ name: 'global', arguments: {} })).rejects.toThrow(/API_KEY_REVOKED/);
  });
});

describe('MCP over stdio (`coinwallet mcp --url`)', () => {
  it('bridges to /mcp with the key of COINWALLET_API_KEY: the search tool answers what /search answers', async () => {
    const key = (await keys(['create', '--plan', 'free', '--approve'])).key as string;
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--url', s.url],
        env: { ...(process.env as Record<string, string>), COINWALLET_API_KEY: key },
      }),
    );
    clients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('search_schema');
    const r = await client.callTool({ name: 'search', arguments: { query: 'lite' } });
    const rest = (await get(s.url, '/v1/agg/search?query=lite')).body as { coins: { id: string }[] };
    const coins = (r.structuredContent as { search: { coins: { id: string }[] } }).search.coins;
    expect(coins.map((x) => x.id)).toEqual(rest.coins.map((x) => x.id));
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
      data: { code: 'UNKNOWN_TOOL' },
    });
  });
});

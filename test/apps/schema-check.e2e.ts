/**
 * `coinwallet schema check` end to end: one `coinwallet serve` process (the build, embedded store, demo data of 3
 * days) where a wallet's app publishes the typed client's persisted-documents.json and one of its documents (Global)
 * gets traffic by `documentId`. Then the CLI, as a separate process that finds the server through the store's lock:
 * a schema without a field Global selects exits 1 naming Global "in use"; a schema breaking only Search (no traffic)
 * exits 0 listing it as "no traffic". Also the route's refusals (no token, bad SDL, too large, a foreign publish
 * token), a publish token limiting the check to its app, and the CLI's usage errors (exit 2).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import { post, testWallet } from '../support/wallet.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'coinwallet.js');
const ADMIN_TOKEN = 'schema-check-operator-token-0123456789';
const MANIFEST = readFileSync(join(ROOT, 'clients/graph/generated/persisted-documents.json'), 'utf8');
const DOCS = JSON.parse(MANIFEST) as Record<string, string>;
const idOf = (name: string): string => {
  const id = Object.keys(DOCS).find((k) => DOCS[k]?.startsWith(`query ${name}(`));
  if (!id) throw new Error(`no query ${name} in the typed client's documents`);
  return id;
};
const SDL = readFileSync(join(ROOT, 'schema/api.graphql'), 'utf8');
const GLOBAL_FIELD = '  """Coins with an aggregate price."""\n  activeCryptocurrencies: Int!\n';
const SEARCH_ARG = '    query: String!\n  ): SearchResult!';

const root = mkdtempSync(join(tmpdir(), 'cw-schema-check-'));
const dataDir = join(root, 'data');
let server: ServeProcess | undefined;
let url = '';
let publishToken = '';
let ownerSession = '';

/** A proposed schema written to a file: the committed one with `edit` applied (which must change it). */
function schemaFile(name: string, edit: (sdl: string) => string): string {
  const changed = edit(SDL);
  expect(changed).not.toBe(SDL);
  const file = join(root, name);
  writeFileSync(file, changed);
  return file;
}

/** `node bin/coinwallet.js …` with DATA_DIR (the lock names the server) and no PORT, URL or publish token inherited. */
function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const { PORT: _p, HOST: _h, COINWALLET_URL: _u, COINWALLET_PUBLISH_TOKEN: _t, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: ROOT,
        env: { ...inherited, DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'warn', ...env },
        timeout: 60_000,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, out: stdout, err: stderr });
      },
    );
  });
}

/** The answer to a check whose body announces `bytes` (content-length) and sends only its first characters. */
function announced(bytes: number): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    let data = '';
    const sock = connect(Number(u.port), u.hostname, () =>
      sock.write(
        `POST /api/admin/schema/check HTTP/1.1\r\nhost: ${u.host}\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\n` +
          `content-type: application/json\r\ncontent-length: ${bytes}\r\nconnection: close\r\n\r\n{"schema":"`,
      ),
    );
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => (data += d));
    sock.on('error', reject);
    sock.on('close', () =>
      resolve({ status: Number(data.split(' ')[1]), body: data.slice(data.indexOf('\r\n\r\n') + 4) }),
    );
  });
}

async function check(body: unknown, token = ADMIN_TOKEN, contentType = 'application/json') {
  const r = await fetch(`${url}/api/admin/schema/check`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
    body: typeof body === 'string' && contentType !== 'application/json' ? body : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

beforeAll(async () => {
  server = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '3', ADMIN_TOKEN, SHED_LAG_MS: '0' }, 90_000);
  url = server.url;
  await waitForStatus(`${url}/healthz`, 200, 120_000);
  const session = await testWallet().signIn(url);
  ownerSession = session;
  const key = await post(
    url,
    '/api/account/api-keys',
    { plan: 'free', description: 'schema check' },
    session,
  );
  const k = key.body as { id: string; key: string };
  expect((await post(url, `/api/admin/api-keys/${k.id}/approve`, {}, ADMIN_TOKEN)).status).toBe(200);
  const app = await post(url, '/api/account/apps', { name: 'my-dapp', keys: [k.id] }, session);
  expect(app.status).toBe(201);
  publishToken = (app.body as { publishToken: string }).publishToken;
  const published = await post(
    url,
    '/api/account/apps/my-dapp/versions',
    { version: '1.0.0', manifest: MANIFEST, activate: true },
    publishToken,
  );
  expect(published.status).toBe(201);
  // A second app of the same owner with one document of the kit: outside the first app's publish token's scope.
  const other = await post(url, '/api/account/apps', { name: 'other-dapp' }, session);
  const kit = JSON.parse(
    readFileSync(join(ROOT, 'src/kit/generated/persisted-documents.json'), 'utf8'),
  ) as Record<string, string>;
  const [kitId, kitBody] = Object.entries(kit).find(([, body]) => body.startsWith('query KitPrice(')) ?? [];
  const kitPublished = await post(
    url,
    '/api/account/apps/other-dapp/versions',
    { version: '0.1.0', manifest: { [kitId as string]: kitBody } },
    (other.body as { publishToken: string }).publishToken,
  );
  expect(kitPublished.status).toBe(201);

  // Traffic: Global, three times by documentId; no other document of the app is sent.
  for (let i = 0; i < 3; i++) {
    const r = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sp-api-key': k.key },
      body: JSON.stringify({ documentId: idOf('Global'), variables: { currency: 'usd' } }),
    });
    expect(r.status).toBe(200);
  }
  // Usage is written by the server's recorder every few seconds: wait until the check sees it.
  const removed = SDL.replace(GLOBAL_FIELD, '');
  for (const until = Date.now() + 30_000; ;) {
    const r = await check({ schema: removed });
    expect(r.status).toBe(200);
    if (r.body.breaksDocumentsInUse === true) break;
    if (Date.now() > until) throw new Error(`Global never in use: ${JSON.stringify(r.body.breaking)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 240_000);

afterAll(async () => {
  await server?.stop('SIGTERM');
  rmSync(root, { recursive: true, force: true });
});

describe('coinwallet schema check', () => {
  it('a removed field that a document in use selects: exit 1, naming the document in use', async () => {
    const file = schemaFile('no-active.graphql', (s) => s.replace(GLOBAL_FIELD, ''));
    const r = await cli(['schema', 'check', '--schema', file]);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toContain('FIELD_REMOVED  GlobalMarket.activeCryptocurrencies was removed.');
    expect(r.out).toContain(`my-dapp version 1.0.0  Global  ${idOf('Global')}  in use (3 requests/30 d)`);
    expect(r.out).toContain('Cannot query field "activeCryptocurrencies" on type "GlobalMarket".');
    expect(r.out).toContain('FAIL: the proposed schema breaks 1 document in use');
  });

  it('a change that breaks only a document without traffic: exit 0, listing it as "no traffic"', async () => {
    const file = schemaFile('search-id.graphql', (s) =>
      s.replace(SEARCH_ARG, '    query: ID!\n  ): SearchResult!'),
    );
    const r = await cli(['schema', 'check', '--schema', file]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('ARG_CHANGED_KIND  Query.search arg query has changed type from String! to ID!.');
    expect(r.out).toContain(`my-dapp version 1.0.0  Search  ${idOf('Search')}  no traffic`);
    expect(r.out).toContain('PASS');
    expect(r.out).not.toContain('Global');
  });

  it('--json prints the report; the committed schema against itself breaks nothing', async () => {
    const r = await cli(['schema', 'check', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as Record<string, unknown>;
    expect(report).toMatchObject({
      breaksDocumentsInUse: false,
      documents: Object.keys(DOCS).length + 1,
      breaking: [],
      other: [],
      alreadyInvalid: [],
      app: null,
    });
  });

  it("with the app's publish token, its own documents only, through the same route", async () => {
    const file = join(root, 'no-active.graphql');
    const r = await cli(['schema', 'check', '--schema', file, '--json'], {
      COINWALLET_PUBLISH_TOKEN: publishToken,
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({
      app: 'my-dapp',
      documents: Object.keys(DOCS).length,
      breaksDocumentsInUse: true,
    });
  });

  it('usage errors exit 2 with a clear message: an unreadable file, invalid SDL, a stray argument', async () => {
    const missing = await cli(['schema', 'check', '--schema', join(root, 'nope.graphql')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read');
    expect(missing.err).toContain('ENOENT');
    const bad = join(root, 'bad.graphql');
    writeFileSync(bad, 'type Query { coins: [Coin] }');
    const invalid = await cli(['schema', 'check', '--schema', bad]);
    expect(invalid.code).toBe(2);
    expect(invalid.err).toContain('Unknown type "Coin"');
    const stray = await cli(['schema', 'check', 'extra']);
    expect(stray.code).toBe(2);
    const sub = await cli(['schema', 'diff']);
    expect(sub.code).toBe(2);
    expect(sub.err).toContain('schema needs: check');
  });
});

describe('POST /api/admin/schema/check', () => {
  it('the SDL as text/plain works as well as { "schema" }', async () => {
    const r = await check(SDL.replace(GLOBAL_FIELD, ''), ADMIN_TOKEN, 'text/plain');
    expect(r.status).toBe(200);
    const removed = (r.body.breaking as Array<{ description: string; documents: unknown[] }>).find(
      (c) => c.description === 'GlobalMarket.activeCryptocurrencies was removed.',
    );
    expect(removed?.documents[0]).toMatchObject({
      app: 'my-dapp',
      versions: ['1.0.0'],
      documentId: idOf('Global'),
      operationName: 'Global',
      inUse: true,
      requests: 3,
    });
  });

  it('bad input: 400 INVALID_SCHEMA saying what was expected, 413 SCHEMA_TOO_LARGE with the limit', async () => {
    const syntax = await check({ schema: 'type Query {' });
    expect(syntax.status).toBe(400);
    expect(syntax.body.error).toMatchObject({ code: 'INVALID_SCHEMA' });
    expect(syntax.body.error.message).toContain('Syntax Error');
    expect(syntax.body.error.message).toContain('line 1');
    for (const body of [{ schema: 42 }, {}, [], { schema: '  ' }, { schema: 'type Coin { id: ID }' }]) {
      const r = await check(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('INVALID_SCHEMA');
    }
    const large = await check({ schema: `${SDL}\n#${'x'.repeat(1024 * 1024)}` });
    expect(large.status).toBe(413);
    expect(large.body.error).toEqual({
      code: 'SCHEMA_TOO_LARGE',
      message: 'the proposed schema must be at most 1 MiB of SDL',
    });
    // Over the route's body limit the server answers on the content-length alone, before the body: a client still
    // writing 3 MiB races the close (EPIPE), so the request announces its length and sends only its start.
    const huge = await announced(3 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body).error.code).toBe('SCHEMA_TOO_LARGE');
  });

  it('no token is 401, a non-administrator 403, a publish token of no app 401 INVALID_PUBLISH_TOKEN', async () => {
    const none = await fetch(`${url}/api/admin/schema/check`, { method: 'POST', body: SDL });
    expect(none.status).toBe(401);
    // A signed-in wallet that is not an administrator: its own apps are checked with their publish token instead.
    const owner = await check({ schema: SDL }, ownerSession);
    expect(owner.status).toBe(403);
    expect(owner.body.error.code).toBe('FORBIDDEN');
    const foreign = await check({ schema: SDL }, `cwp_${'A'.repeat(43)}`);
    expect(foreign.status).toBe(401);
    expect(foreign.body.error.code).toBe('INVALID_PUBLISH_TOKEN');
  });
});

describe('nobody holds the store', () => {
  it('the CLI opens the store itself and gives the same verdict', async () => {
    expect(await server?.stop('SIGTERM')).toBe(0);
    server = undefined;
    const r = await cli(['schema', 'check', '--schema', join(root, 'no-active.graphql')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toContain('against the schema served by this installation, on the store itself');
    expect(r.out).toContain(`Global  ${idOf('Global')}  in use (3 requests/30 d)`);
  });
});

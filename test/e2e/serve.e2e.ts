import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { KIT_PERSISTED_DOCUMENTS_PATH } from '../../src/server/browser/kit-manifest.ts';
import { openDb } from '../../src/store/open.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';

const dirs: string[] = [];
const procs: ServeProcess[] = [];
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cw-serve-'));
  dirs.push(d);
  return d;
}

interface Health {
  status: string;
  dataset: string;
  notice: string | null;
  history: 'storing' | 'stored';
  assets: { tracked: number; priced: number; verifiedMarketCap: number };
}

/** Polls `ok` every 100 ms until it holds, for at most `ms`. */
async function waitFor(ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; !(await ok());) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The ready server of the first block (restarted after kill -9), which later blocks use. */
let served: ServeProcess;

describe('coinwallet serve (embedded PGlite)', () => {
  const dataDir = tempDir();

  it('answers 503 while loading the demo data, then 200 with everything aggregated', async () => {
    const p = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '100' });
    procs.push(p);
    const { seen, body } = await waitForStatus(`${p.url}/healthz`, 200, 180_000);
    const h = body as Health;
    expect(seen).toContain(503);
    expect(h).toMatchObject({ status: 'ok', dataset: 'demo' });
    expect(h.notice).toMatch(/demo/i);
    expect(h.assets.tracked).toBeGreaterThanOrEqual(60);
    expect(h.assets.priced).toBe(h.assets.tracked);
    expect(h.assets.verifiedMarketCap).toBeGreaterThan(30);
    expect(h.assets.verifiedMarketCap).toBeLessThan(h.assets.tracked);
    expect(p.output()).toMatch(/generating demo data/);
    // The store takes the history after start-up; /healthz says when it holds it all.
    expect(['storing', 'stored']).toContain((body as Health).history);
    await waitFor(
      async () => ((await (await fetch(`${p.url}/healthz`)).json()) as Health).history === 'stored',
    );
  });

  it('survives kill -9: the restarted process finds its data and does not regenerate it', async () => {
    const first = procs.pop() as ServeProcess;
    expect(await first.stop('SIGKILL')).toBeNull();
    const p = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '100' });
    procs.push(p);
    const { body } = await waitForStatus(`${p.url}/healthz`, 200, 60_000);
    expect((body as Health).assets.priced).toBeGreaterThanOrEqual(60);
    expect(p.output()).not.toMatch(/generating demo data/);
    expect((body as Health).history).toBe('stored');
    served = p;
  });

  it("holds a spent budget's repeated 429s on /graphql and sends each once, with its body, nothing failing to write", async () => {
    const p = served;
    const token = readFileSync(join(dataDir, 'secrets', 'admin-token'), 'utf8').trim();
    const made = await fetch(`${p.url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ plan: 'free', description: 'held refusals', approve: true }),
    });
    const { key } = (await made.json()) as { key: string };
    // Two coins' 90-day hourly charts, ~4,400 of the free plan's 20,000 a minute: spent after four, the rest refused
    // after their bodies are read (by the cost of the operation), past the grace's ten held by the refusal pace.
    const query =
      '{ coins(first: 2) { edges { node { id chart(days: 90, interval: HOURLY) { points { time price } } } } } }';
    const before = p.output().length;
    const answers = await Promise.all(
      Array.from({ length: 24 }, async () => {
        const r = await fetch(`${p.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
          body: JSON.stringify({ query }),
        });
        return { status: r.status, text: await r.text() };
      }),
    );
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(10);
    // Each with its body: not an empty answer sent in place of a held one.
    for (const r of refused)
      expect(JSON.parse(r.text)).toMatchObject({
        errors: [{ extensions: { code: 'COST_BUDGET_EXHAUSTED' } }],
      });
    await new Promise((r) => setTimeout(r, 200));
    expect(p.output().slice(before)).not.toMatch(/Cannot write headers|router error/);
  });

  it("serves the graph at /graphql, running the kit's persisted documents by id and reporting the cost", async () => {
    const p = served;
    const manifest = JSON.parse(readFileSync(KIT_PERSISTED_DOCUMENTS_PATH, 'utf8')) as Record<string, string>;
    const entry = Object.entries(manifest).find(([, body]) => body.startsWith('query KitPrice'));
    expect(entry).toBeDefined();
    const [documentId] = entry as [string, string];
    const vars = { ids: ['litecoin'], currency: 'usd', first: 1 };
    const res = await fetch(`${p.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ documentId, variables: vars }),
    });
    const json = (await res.json()) as { data?: unknown; errors?: unknown; extensions?: { cost?: unknown } };
    expect(res.status).toBe(200);
    expect(json.errors).toBeUndefined();
    expect(JSON.stringify(json.data)).toContain('litecoin');
    expect(json.extensions?.cost).toMatchObject({ plan: 'keyless', max: 2500 });
    expect(res.headers.get('x-query-cost')).toMatch(/^\d+$/);
    // A free-form query still runs (the kits' manifest is allowed, not a safelist, unless configured).
    const free = await fetch(`${p.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ coin(id: "litecoin") { id symbol } }' }),
    });
    expect(await free.json()).toEqual({
      data: { coin: { id: 'litecoin', symbol: 'ltc' } },
      extensions: {
        cost: {
          estimated: 1,
          actual: 1,
          max: 2500,
          plan: 'keyless',
          budget: { limit: 5000, remaining: expect.any(Number) },
        },
      },
    });
  });
});

/** Sends the headers and half the announced body of a POST, then destroys the socket. */
function halfABody(url: string, path: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => {
      s.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"query":"{ cur`,
      );
      setTimeout(() => {
        s.destroy();
        resolve();
      }, 100);
    });
    s.on('error', reject);
  });
}

describe('coinwallet serve: during the warm-up', () => {
  it('answers its probes at once and ends at once on SIGTERM (exit 143), the store left free', async () => {
    const dataDir = tempDir();
    // A long history keeps the first start's warm-up busy for a few seconds on any machine.
    const p = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '2000' });
    procs.push(p);
    const answered: number[] = [];
    for (let i = 0; i < 8; i++) {
      const t0 = performance.now();
      const r = await fetch(`${p.url}/readyz`, { signal: AbortSignal.timeout(1_000) });
      expect(performance.now() - t0).toBeLessThan(1_000);
      answered.push(r.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answered.every((s) => s === 503)).toBe(true);
    const t0 = performance.now();
    expect(await p.stop('SIGTERM')).toBe(143);
    expect(performance.now() - t0).toBeLessThan(1_000);
    // It released the store: a new process may open it at once.
    const db = await openDb({ dataDir });
    await db.close();
  });
});

describe('coinwallet serve: a client that aborts its body', () => {
  it('POST /graphql and POST /api/… with half a body: no error with a stack in the log, the server goes on', async () => {
    const p = served;
    const before = p.output().length;
    for (const path of ['/graphql', '/api/auth/session', '/graphql']) await halfABody(p.url, path);
    await new Promise((r) => setTimeout(r, 500));
    const log = p.output().slice(before);
    expect(log).not.toMatch(/"level":(50|60)|"stack"|router error|unhandled error/);
    const res = await fetch(`${p.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ currencies }' }),
    });
    expect(res.status).toBe(200);
  });
});

describe('coinwallet serve (PostgreSQL server)', () => {
  it('runs the same migrations and serves 200 from a DATABASE_URL', async () => {
    const admin = await openDb({ databaseUrl: inject('databaseUrl') });
    const schema = `serve_${Date.now().toString(36)}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.close();
    const url = new URL(inject('databaseUrl'));
    url.searchParams.set('options', `-c search_path=${schema}`);
    // Several processes share one PostgreSQL: they must share the key pepper, and the server says so.
    await expect(startServe({ DATA_DIR: tempDir(), DATABASE_URL: url.toString() })).rejects.toThrow(
      /API_KEY_PEPPER is required/,
    );
    const p = await startServe({
      DATA_DIR: tempDir(),
      DATABASE_URL: url.toString(),
      DEMO_DAYS: '30',
      API_KEY_PEPPER: 'e2e-pepper-0123456789abcdef',
    });
    procs.push(p);
    const { body } = await waitForStatus(`${p.url}/healthz`, 200, 180_000);
    expect((body as Health).assets.priced).toBeGreaterThanOrEqual(60);
    const db = await openDb({ databaseUrl: url.toString() });
    const r = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM price_bars WHERE res = '1d'");
    await db.close();
    expect(r.rows[0]?.n).toBeGreaterThan(60 * 25);
  });
});

// `coinwallet serve` says where the operator token is when `ADMIN_TOKEN` is unset (embedded mode generates one), in
// its start-up lines, and never prints the token itself.
describe('the operator token at start-up', () => {
  it('ADMIN_TOKEN unset: the start-up lines name the generated file, not the token', async () => {
    const dataDir = tempDir();
    const p = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '3', ADMIN_TOKEN: '' });
    procs.push(p);
    const file = join(dataDir, 'secrets', 'admin-token');
    const startUp = p.output().slice(0, p.output().indexOf('listening on'));
    expect(startUp).toContain(`coinwallet: ADMIN_TOKEN is unset: the operator token is in ${file}\n`);
    const token = readFileSync(file, 'utf8').trim();
    expect(token).toMatch(/^cwa_/);
    expect(p.output()).not.toContain(token);
    await p.stop();
  });

  it('ADMIN_TOKEN set: no token line, nothing generated', async () => {
    const dataDir = tempDir();
    const token = 'e2e-operator-token-0123456789';
    const p = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '3', ADMIN_TOKEN: token });
    procs.push(p);
    expect(p.output()).toContain('listening on');
    expect(p.output()).not.toContain('operator token');
    expect(p.output()).not.toContain(token);
    expect(() => readFileSync(join(dataDir, 'secrets', 'admin-token'))).toThrow(/ENOENT/);
    await p.stop();
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDb } from '../../src/store/open.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import { get, post, testWallet } from '../support/wallet.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const procs: ServeProcess[] = [];
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<ServeProcess> {
  const p = await startServe(env, 60_000);
  procs.push(p);
  await waitForStatus(`${p.url}/healthz`, 200, 180_000);
  return p;
}

async function cli(env: Record<string, string>, url: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [join(ROOT, 'bin', 'coinwallet.js'), ...args, '--url', url],
    {
      env: { ...process.env, ...env },
    },
  );
  return JSON.parse(stdout);
}

const code = (b: unknown) => (b as { error?: { code?: string } }).error?.code;
const dapp = (n: number, site = `https://dapp${n}.example`) => ({
  name: `Dapp ${n}`,
  site,
  icon: `${site}/icon.png`,
  description: `Dapp number ${n} <script>alert(1)</script>'; DROP TABLE dapps; --`,
  contactEmail: `team${n}@example.com`,
  chains: ['LTC', 'DOGE'],
});

describe('accounts end to end with real signatures (embedded store)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-acct-'));
  dirs.push(dataDir);
  const env = { DATA_DIR: dataDir, DEMO_DAYS: '5', LOG_LEVEL: 'warn' };

  it('sign in, key lifecycle through review, dapp submissions, review, store and origin access', async () => {
    const s = await start(env);
    const owner = testWallet('p2wpkh');
    const token = await owner.signIn(s.url);
    expect((await get(s.url, '/api/account/me', token)).body).toMatchObject({
      address: owner.address,
      role: 'user',
    });

    // Request a key: pending does nothing yet.
    const created = await post(
      s.url,
      '/api/account/api-keys',
      { description: 'my dashboard', plan: 'pro' },
      token,
    );
    expect(created.status).toBe(201);
    const key = created.body as { id: string; key: string; status: string };
    expect(key.status).toBe('pending');
    const price = () => fetch(`${s.url}/v1/agg/ping`, { headers: { 'x-sp-api-key': key.key } });
    expect((await price()).status).toBe(401);

    // A non-admin cannot review; the first administrator is granted by the operator CLI.
    expect((await post(s.url, `/api/admin/api-keys/${key.id}/approve`, {}, token)).status).toBe(403);
    expect((await post(s.url, `/api/admin/api-keys/${key.id}/approve`, {})).status).toBe(401);
    const admin = testWallet('p2pkh');
    await cli(env, s.url, 'admin', 'grant', admin.address);
    const adminToken = await admin.signIn(s.url);
    const pending = (await get(s.url, '/api/admin/api-keys?status=pending', adminToken)).body as {
      id: string;
    }[];
    expect(pending.map((k) => k.id)).toContain(key.id);
    expect((await post(s.url, `/api/admin/api-keys/${key.id}/approve`, {}, adminToken)).status).toBe(200);
    const ok = await price();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-api-plan')).toBe('pro');
    expect(ok.headers.get('x-ratelimit-limit')).toBe('3000');

    // The owner revokes: 401 on the very next request.
    expect((await post(s.url, `/api/account/api-keys/${key.id}/revoke`, {}, token)).status).toBe(200);
    expect(code(await (await price()).json())).toBe('API_KEY_REVOKED');

    // A rejected key shows its reason on the owner's list (rejected here by the operator CLI).
    const second = (await post(s.url, '/api/account/api-keys', { description: 'bot', plan: 'free' }, token))
      .body as { id: string };
    await cli(env, s.url, 'keys', 'reject', second.id, '--reason', 'describe the bot better');
    const mine = (await get(s.url, '/api/account/api-keys', token)).body as {
      id: string;
      status: string;
      rejectionReason: string | null;
    }[];
    expect(mine.find((k) => k.id === second.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'describe the bot better',
    });
    // Only the short display prefix is ever shown again, never a whole key.
    expect(JSON.stringify(mine)).not.toContain(key.key);
    expect(JSON.stringify(mine)).not.toMatch(/cw_live_[1-9A-HJ-NP-Za-km-z]{44}/);

    // Dapps: three a day, the fourth is 429 with Retry-After.
    const ids: string[] = [];
    for (let n = 1; n <= 3; n++) {
      const r = await post(s.url, '/api/account/dapps', dapp(n), token);
      expect(r.status).toBe(201);
      ids.push((r.body as { id: string }).id);
    }
    const fourth = await post(s.url, '/api/account/dapps', dapp(4), token);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(code(fourth.body)).toBeTruthy();

    // Review: approve one with the admin session, reject one with the CLI; the submitter sees status and notes.
    expect(
      (await post(s.url, `/api/admin/dapps/${ids[0]}/approve`, { notes: 'welcome' }, adminToken)).status,
    ).toBe(200);
    await cli(env, s.url, 'dapps', 'reject', ids[1] as string, '--notes', 'icon is broken');
    const own = (await get(s.url, '/api/account/dapps', token)).body as {
      id: string;
      status: string;
      description: string;
    }[];
    expect(own.find((d) => d.id === ids[1])).toMatchObject({ status: 'rejected' });
    expect(JSON.stringify(own)).toMatch(/icon is broken/);
    expect(own.find((d) => d.id === ids[0])?.description).toBe(dapp(1).description); // stored verbatim

    // The store lists approved dapps only; the origin check drives wallet API access.
    const store = JSON.stringify((await get(s.url, '/api/dapps')).body);
    expect(store).toMatch(/dapp1\.example/);
    expect(store).not.toMatch(/dapp2\.example/);
    const allowed = (o: string) =>
      get(s.url, `/api/dapps/access?origin=${encodeURIComponent(o)}`).then(
        (r) => (r.body as { allowed: boolean }).allowed,
      );
    expect(await allowed('https://dapp1.example')).toBe(true);
    expect(await allowed('https://dapp2.example')).toBe(false);
  });
});

describe('acknowledged writes survive kill -9', () => {
  async function writeKillRestart(env: Record<string, string>): Promise<void> {
    const s = await start(env);
    const w = testWallet();
    const token = await w.signIn(s.url);
    const keyIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await post(s.url, '/api/account/api-keys', { description: `key ${i}`, plan: 'free' }, token);
      expect(r.status).toBe(201);
      keyIds.push((r.body as { id: string }).id);
    }
    const d = await post(s.url, '/api/account/dapps', dapp(9, 'https://durable.example'), token);
    expect(d.status).toBe(201);
    await s.stop('SIGKILL'); // right after the last acknowledgement
    const again = await start(env);
    const token2 = await w.signIn(again.url);
    const keys = (await get(again.url, '/api/account/api-keys', token2)).body as { id: string }[];
    expect(keys.map((k) => k.id).sort()).toEqual([...keyIds].sort());
    const dapps = (await get(again.url, '/api/account/dapps', token2)).body as { id: string }[];
    expect(dapps.map((x) => x.id)).toEqual([(d.body as { id: string }).id]);
  }

  it('on the embedded PGlite store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cw-durable-'));
    dirs.push(dataDir);
    await writeKillRestart({ DATA_DIR: dataDir, DEMO_DAYS: '3', LOG_LEVEL: 'warn' });
  });

  it('on a PostgreSQL server', async () => {
    const admin = await openDb({ databaseUrl: inject('databaseUrl') });
    const schema = `durable_${Date.now().toString(36)}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.close();
    const url = new URL(inject('databaseUrl'));
    url.searchParams.set('options', `-c search_path=${schema}`);
    const dataDir = mkdtempSync(join(tmpdir(), 'cw-durable-pg-'));
    dirs.push(dataDir);
    await writeKillRestart({
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      API_KEY_PEPPER: 'durable-pepper-0123456789',
      ADMIN_TOKEN: 'durable-admin-token-0123456789',
      DEMO_DAYS: '3',
      LOG_LEVEL: 'warn',
    });
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDb } from '../../src/store/open.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import type { TempRedis } from '../support/redis.ts';
import { startTempRedis } from '../support/redis.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const servers: ServeProcess[] = [];
let redis: TempRedis;
let env: Record<string, string>;

beforeAll(async () => {
  redis = await startTempRedis();
  const admin = await openDb({ databaseUrl: inject('databaseUrl') });
  const schema = `scale_${Date.now().toString(36)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const url = new URL(inject('databaseUrl'));
  url.searchParams.set('options', `-c search_path=${schema}`);
  env = {
    DATABASE_URL: url.toString(),
    REDIS_URL: redis.url,
    API_KEY_PEPPER: 'scale-out-pepper-0123456789',
    ADMIN_TOKEN: 'scale-out-admin-token-0123456789',
    DEMO_DAYS: '5',
    LOG_LEVEL: 'warn',
  };
  // The first process loads the demo data into the shared store; the second finds it there.
  for (let i = 0; i < 2; i++) {
    const d = mkdtempSync(join(tmpdir(), 'cw-scale-'));
    dirs.push(d);
    const s = await startServe({ ...env, DATA_DIR: d }, 60_000);
    servers.push(s);
    await waitForStatus(`${s.url}/healthz`, 200, 180_000);
  }
});

afterAll(async () => {
  for (const s of servers) await s.stop('SIGTERM');
  await redis?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [join(ROOT, 'bin', 'coinwallet.js'), ...args], {
    env: { ...process.env, ...env, DATA_DIR: dirs[0] as string },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('two server processes on one PostgreSQL and one Redis', () => {
  it('share one budget per key exactly, and both refuse a revoked key on the very next request', async () => {
    const [a, b] = servers as [ServeProcess, ServeProcess];
    const created = await cli('keys', 'create', '--plan', 'free', '--approve', '--url', a.url);
    const key = created.key as string;
    const statuses: number[] = [];
    // 650 requests alternating between the two processes, 10 at a time.
    for (let i = 0; i < 650; i += 10) {
      const batch = Array.from({ length: 10 }, (_, j) =>
        fetch(`${(i + j) % 2 ? b.url : a.url}/v1/agg/ping`, { headers: { 'x-sp-api-key': key } }).then(
          (r) => r.status,
        ),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(600);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);

    const other = await cli('keys', 'create', '--plan', 'pro', '--approve', '--url', b.url);
    const ask = (s: ServeProcess) =>
      fetch(`${s.url}/v1/agg/ping`, { headers: { 'x-sp-api-key': other.key as string } });
    expect((await ask(a)).status).toBe(200);
    expect((await ask(b)).status).toBe(200); // both processes now hold the key in their lookup caches
    await cli('keys', 'revoke', other.id as string, '--url', a.url);
    const r = await ask(b);
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('API_KEY_REVOKED');
  });
});

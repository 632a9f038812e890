/**
 * A publish acknowledged with 201 survives kill -9: the product runs from the sources as a child process on the
 * embedded PGlite store (`coinwallet serve`), a version is published and the process is killed with SIGKILL right
 * after the answer; started again on the same data directory, the version is there, active, with all its documents,
 * and publishing it again is 409 VERSION_EXISTS.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { waitForStatus } from '../support/process.ts';
import { get, post, testWallet } from '../support/wallet.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MANIFEST = readFileSync(join(ROOT, 'clients/graph/generated/persisted-documents.json'), 'utf8');
const children: ChildProcess[] = [];
let dir = '';

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts `coinwallet serve` from the sources on `dataDir`; resolves with its URL once its health is 200. */
async function serve(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['bin/run-ts.js', 'test/apps/support/cli-from-source.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DAYS: '3',
      LOG_LEVEL: 'warn',
      SHED_LAG_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const check = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s/]+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
  await waitForStatus(`${url}/healthz`, 200, 180_000);
  return { url, child };
}

it('an acknowledged version is on disk after SIGKILL', { timeout: 420_000 }, async () => {
  dir = await mkdtemp(join(tmpdir(), 'cw-apps-durable-'));
  const w = testWallet();
  const first = await serve(dir);
  const token = await w.signIn(first.url);
  expect((await post(first.url, '/api/account/apps', { name: 'durable' }, token)).status).toBe(201);
  const published = await post(
    first.url,
    '/api/account/apps/durable/versions',
    { version: '1.0.0', manifest: MANIFEST, activate: true },
    token,
  );
  expect(published.status).toBe(201);
  const exited = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL'); // right after the acknowledgement
  await exited;

  const again = await serve(dir);
  const token2 = await w.signIn(again.url);
  const app = await get(again.url, '/api/account/apps/durable', token2);
  expect(app.body).toMatchObject({
    versions: [
      { version: '1.0.0', active: true, documents: Object.keys(JSON.parse(MANIFEST) as object).length },
    ],
  });
  const repeat = await post(
    again.url,
    '/api/account/apps/durable/versions',
    { version: '1.0.0', manifest: MANIFEST },
    token2,
  );
  expect([repeat.status, (repeat.body as { error: { code: string } }).error.code]).toEqual([
    409,
    'VERSION_EXISTS',
  ]);
});

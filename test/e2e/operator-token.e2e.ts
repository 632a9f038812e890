/**
 * `coinwallet serve` says where the operator token is when `ADMIN_TOKEN` is unset (embedded mode generates one), in
 * its start-up lines, and never prints the token itself.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../support/process.ts';
import { startServe } from '../support/process.ts';

const dirs: string[] = [];
const procs: ServeProcess[] = [];
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cw-token-'));
  dirs.push(d);
  return d;
}

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

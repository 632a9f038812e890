/**
 * One owner per embedded store, and processes that cannot listen end at once (issue 30). Real processes: the
 * reproducer of the data loss (a server on a port the CLI is not told; `keys create` without PORT), a second server on
 * the same DATA_DIR, a `--url` that does not answer, kill -9 of the holder then a start, and each part on a busy port.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/store/lock.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'coinwallet.js');
const root = mkdtempSync(join(tmpdir(), 'cw-lock-'));
const started: ServeProcess[] = [];
afterAll(async () => {
  for (const p of started) await p.stop('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** No demo data (the lock does not need it) and a fixed operator token; the rest as a user's shell has it. */
const BASE_ENV = { DEMO: 'off', LOG_LEVEL: 'warn', ADMIN_TOKEN: 'lock-test-operator-token-0123456789' };

/** The environment of a CLI run: PORT, HOST and COINWALLET_URL only when `env` gives them (the reproducer has none). */
function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { PORT: _p, HOST: _h, COINWALLET_URL: _u, ...inherited } = process.env;
  return { ...inherited, ...BASE_ENV, ...env };
}

/** `node bin/coinwallet.js …`: exit code and output, ended by itself within 60 s. */
function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, env: cliEnv(env), timeout: 60_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, out: stdout, err: stderr });
      },
    );
  });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function serve(dataDir: string, port: number): Promise<ServeProcess> {
  const p = await startServe({ ...BASE_ENV, DATA_DIR: dataDir, PORT: String(port) }, 90_000);
  started.push(p);
  await waitForStatus(`${p.url}/healthz`, 200, 120_000);
  return p;
}

const ping = async (url: string, key: string) =>
  (await fetch(`${url}/v1/agg/ping`, { headers: { 'x-sp-api-key': key } })).status;

describe('the embedded store has one owner', () => {
  const dataDir = join(root, 'data');
  let port = 0;
  let server: ServeProcess;
  let key = '';

  it('the reproducer: keys create without PORT goes through the server holding DATA_DIR, which accepts the key at once', async () => {
    port = await freePort();
    server = await serve(dataDir, port);
    const lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as Record<string, unknown>;
    expect(lock).toMatchObject({ pid: server.child.pid, command: 'serve', url: `http://127.0.0.1:${port}` });
    const r = await cli(['keys', 'create', '--plan', 'free', '--approve'], { DATA_DIR: dataDir });
    expect(r.code).toBe(0);
    key = (JSON.parse(r.out) as { key: string }).key;
    expect(await ping(server.url, key)).toBe(200);
    const list = await cli(['keys', 'list'], { DATA_DIR: dataDir });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out)).toHaveLength(1);
  });

  it('a second server on the same DATA_DIR is refused, naming the holder, and changes nothing', async () => {
    const other = await cli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    expect(other.code).toBe(1);
    expect(other.err).toContain(`in use by coinwallet serve (pid ${server.child.pid}`);
    expect(other.err).toContain(`http://127.0.0.1:${port}`);
    // A command that writes the store itself is refused the same way.
    const ingest = await cli(['ingest', '--replay', '/dev/null'], { DATA_DIR: dataDir });
    expect(ingest.code).toBe(1);
    expect(ingest.err).toContain(`pid ${server.child.pid}`);
    expect(await ping(server.url, key)).toBe(200);
  });

  it('a restart after a clean stop works and keeps the key', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    server = await serve(dataDir, port);
    expect(await ping(server.url, key)).toBe(200);
  });

  it('kill -9 of the holder, then a start: the lock is taken over (and logged), nothing acknowledged is lost', async () => {
    const created = await cli(['keys', 'create', '--plan', 'pro', '--approve'], { DATA_DIR: dataDir });
    expect(created.code).toBe(0);
    const second = (JSON.parse(created.out) as { key: string }).key;
    const deadPid = server.child.pid;
    await server.stop('SIGKILL');
    // The dead holder's lock is still there: nothing may mistake it for a live one.
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: deadPid });
    server = await serve(dataDir, port);
    expect(server.output()).toContain(
      `took over the lock of ${dataDir} from coinwallet serve (pid ${deadPid}`,
    );
    expect(await ping(server.url, key)).toBe(200);
    expect(await ping(server.url, second)).toBe(200);
  });

  it('a --url or COINWALLET_URL that does not answer is an error naming it: no local store is made', async () => {
    const fresh = join(root, 'fresh');
    const down = `http://127.0.0.1:${await freePort()}`;
    const r = await cli(['keys', 'create', '--plan', 'free', '--url', down], { DATA_DIR: fresh });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`no server answers at ${down}`);
    const e = await cli(['keys', 'list'], { DATA_DIR: fresh, COINWALLET_URL: down });
    expect(e.code).toBe(1);
    expect(e.err).toContain(`no server answers at ${down}`);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('a process that cannot listen exits non-zero at once, naming the port', () => {
  let busy: Server;
  let port = 0;
  afterAll(() => new Promise<void>((r) => busy.close(() => r())));

  it.each([
    ['the product', []],
    ['router', ['--only', 'router']],
    ['subgraph:markets', ['--only', 'subgraph:markets']],
    ['subgraph:identity', ['--only', 'subgraph:identity']],
    ['subgraph:accounts', ['--only', 'subgraph:accounts']],
  ])('%s', async (name, args) => {
    if (!busy) {
      busy = createServer();
      await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
      port = (busy.address() as { port: number }).port;
    }
    const dataDir = join(root, `busy-${name.replace(/\W/g, '-')}`);
    const sub = 'http://127.0.0.1:9/graphql';
    const r = await cli(['serve', ...args], {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SUBGRAPH_URLS: `markets=${sub},identity=${sub},bridge=${sub},accounts=${sub}`,
    });
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `cannot listen on 127.0.0.1:${port} (PORT): the port is in use by another process`,
    );
    // It closed what it had opened: its store is free for the next process.
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});

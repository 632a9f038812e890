import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { freePort } from './postgres.ts';

const BIN = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';

/** A throwaway redis-server on a free loopback port, without persistence. */
export interface TempRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** `port`: that one (a stopped server started again where its clients reconnect); default a free one. */
export async function startTempRedis(timeoutMs = 15_000, port?: number): Promise<TempRedis> {
  if (!existsSync(BIN))
    throw new Error(`${BIN} not found: install Debian's redis-server (apt-get install -y redis-server)`);
  port ??= await freePort();
  const child = spawn(
    BIN,
    ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const end = Date.now() + timeoutMs;
  while (!(await ping(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > end) {
      await stop(child, exited);
      throw new Error(`redis-server did not answer PING within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop: () => stop(child, exited) };
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited;
}

/** True when something on the port answers PING with PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1_000, () => done(false));
    s.once('error', () => done(false));
    s.once('connect', () => s.write('PING\r\n'));
    s.once('data', (d: Buffer) => done(d.toString().startsWith('+PONG')));
  });
}

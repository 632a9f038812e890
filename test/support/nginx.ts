import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './postgres.ts';
import { waitForStatus } from './process.ts';

const BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const CONF = join(import.meta.dirname, '..', '..', 'deploy', 'nginx.conf');

/** Debian's nginx with the committed `deploy/nginx.conf`, its routers and port replaced, under `dir`. */
export async function startNginx(
  dir: string,
  routers: readonly string[],
): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const servers = routers.map((u) => `    server ${new URL(u).host} max_fails=1 fail_timeout=5s;`).join('\n');
  const conf = readFileSync(CONF, 'utf8')
    .replace(/(?: {4}server 127\.0\.0\.1:\d+ [^\n]*\n)+/, `${servers}\n`)
    .replace(/listen 8080;/, `listen 127.0.0.1:${port};`);
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = spawn(BIN, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let out = '';
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForStatus(`${url}/livez`, 200, 15_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`nginx did not start: ${String(err)}\n${out}`);
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}

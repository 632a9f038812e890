/**
 * Third-party gateways as real processes on loopback, each run with exactly the configuration docs/gateways.md
 * gives (`examples/gateways/`): the `hive-gateway` CLI of `@graphql-hive/gateway`, and the vanilla Apollo Gateway
 * script. Both read a supergraph printed by `coinwallet supergraph`.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const HIVE_BIN = join(ROOT, 'node_modules', '@graphql-hive', 'gateway', 'dist', 'bin.js');

export interface GatewayProcess {
  /** Where it answers GraphQL (POST). */
  graphql: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** `coinwallet supergraph --url …` for `urls`, written to `file`. */
export async function printSupergraph(urls: Record<string, string>, file: string): Promise<void> {
  const args = Object.entries(urls).flatMap(([n, u]) => ['--url', `${n}=${u}`]);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'bin', 'coinwallet.js'), 'supergraph', ...args],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  writeFileSync(file, stdout);
}

/**
 * A port nothing listens on now. The Hive Gateway CLI prints the port it was given, not the one it got, so port 0
 * cannot be used; the port is free when handed over (another process taking it in between would fail the start).
 */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function spawnGateway(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Waits until `ready()` is true, the process having not exited; never a fixed sleep. */
async function until(p: ReturnType<typeof spawnGateway>, ready: () => Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (p.child.exitCode !== null) throw new Error(`exited with ${p.child.exitCode}:\n${p.output()}`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  await p.stop();
  throw new Error(`not ready after ${ms} ms:\n${p.output()}`);
}

/** `hive-gateway supergraph <file> -c examples/gateways/hive-gateway.config.ts`, ready once `/readiness` is 200. */
export async function startHiveGateway(supergraphFile: string): Promise<GatewayProcess> {
  const port = await freePort();
  const p = spawnGateway(
    [
      HIVE_BIN,
      'supergraph',
      supergraphFile,
      '-c',
      join(ROOT, 'examples', 'gateways', 'hive-gateway.config.ts'),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {},
  );
  const base = `http://127.0.0.1:${port}`;
  await until(p, async () => (await fetch(`${base}/readiness`)).status === 200, 60_000);
  return { ...p, graphql: `${base}/graphql` };
}

/** `examples/gateways/apollo-gateway.ts` with `SUPERGRAPH` and `PORT=0`, ready once it prints where it listens. */
export async function startApolloGateway(supergraphFile: string): Promise<GatewayProcess> {
  const p = spawnGateway(
    [join(ROOT, 'bin', 'run-ts.js'), join(ROOT, 'examples', 'gateways', 'apollo-gateway.ts')],
    {
      SUPERGRAPH: supergraphFile,
      PORT: '0',
      HOST: '127.0.0.1',
    },
  );
  let url = '';
  await until(
    p,
    async () => {
      url = /apollo-gateway listening on (\S+)/.exec(p.output())?.[1] ?? '';
      return url !== '';
    },
    60_000,
  );
  return { ...p, graphql: url };
}

/**
 * A throwaway Litecoin Core node in regtest on loopback (Debian's `litecoind`, installed by `.ci/run`): a fresh
 * datadir, free ports, cookie auth; `rpc` calls it like `litecoin-cli`; `mine` makes blocks spaced in time (the
 * node's mock clock), so block times look like a real chain's.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Litecoind {
  datadir: string;
  /** `http://127.0.0.1:<port>/` */
  rpcUrl: string;
  cookieFile: string;
  /** One RPC call; `wallet` targets `/wallet/<name>`. Rejects with the node's error message. */
  rpc<T = unknown>(method: string, params?: unknown[], wallet?: string): Promise<T>;
  /** The raw JSON text of a call's answer (for exact amounts). */
  rpcText(method: string, params?: unknown[]): Promise<string>;
  /** Mines `n` blocks to `address`, `spacing` seconds apart, the last one at `end` (UNIX s; default now). */
  mine(n: number, address: string, spacing?: number, end?: number): Promise<void>;
  /** Stops the node (RPC `stop`, then waits for the process to exit). */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export async function startLitecoind(): Promise<Litecoind> {
  const datadir = mkdtempSync(join(tmpdir(), 'cw-ltc-'));
  const rpcPort = await freePort();
  const p2pPort = await freePort();
  const child: ChildProcess = spawn(
    'litecoind',
    [
      '-regtest',
      `-datadir=${datadir}`,
      `-rpcport=${rpcPort}`,
      `-port=${p2pPort}`,
      '-rpcbind=127.0.0.1',
      '-rpcallowip=127.0.0.1',
      '-listen=0',
      '-dnsseed=0',
      '-fallbackfee=0.0001',
      '-printtoconsole=0',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const rpcUrl = `http://127.0.0.1:${rpcPort}/`;
  const cookieFile = join(datadir, 'regtest', '.cookie');
  const rpcText = async (method: string, params: unknown[] = [], wallet?: string): Promise<string> => {
    const auth = Buffer.from(readFileSync(cookieFile, 'utf8').trim()).toString('base64');
    const res = await fetch(wallet ? `${rpcUrl}wallet/${wallet}` : rpcUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
    });
    return res.text();
  };
  const rpc = async <T>(method: string, params: unknown[] = [], wallet?: string): Promise<T> => {
    const body = JSON.parse(await rpcText(method, params, wallet)) as {
      result: T;
      error: { message: string } | null;
    };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  // Ready when the cookie exists and a call answers (error -28 while warming up).
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      await rpc('getblockcount');
      break;
    } catch (err) {
      if (Date.now() > until || child.exitCode !== null)
        throw new Error(`litecoind did not start: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    datadir,
    rpcUrl,
    cookieFile,
    rpc,
    rpcText: (m, p) => rpcText(m, p),
    async mine(n, address, spacing = 150, end = Math.floor(Date.now() / 1000)) {
      for (let i = n - 1; i >= 0; i--) {
        await rpc('setmocktime', [end - i * spacing]);
        await rpc('generatetoaddress', [1, address]);
      }
      await rpc('setmocktime', [0]);
    },
    async stop() {
      if (child.exitCode === null) {
        await rpc('stop').catch(() => child.kill('SIGTERM'));
        await exited;
      }
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}

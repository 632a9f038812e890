/**
 * `npm run example:apps:serve`: serves the dapp's page (`index.html`, `dist/app.js`) statically on loopback, as any
 * static host would, and prints its URL with `?api=` and `?key=` from `COINWALLET_URL` and `COINWALLET_API_KEY`.
 * The page's origin is `http://<host>:<port>`: that is what the app's `origins` list must hold (docs/apps.md).
 *
 *   node bin/run-ts.js examples/apps-dapp/serve.ts [--port 4710] [--host 127.0.0.1]
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = import.meta.dirname;
export const DEFAULT_DAPP_PORT = 4710;

/** The only files served: path → file and type. */
const FILES: Record<string, readonly [string, string]> = {
  '/': [join(HERE, 'index.html'), 'text/html; charset=utf-8'],
  '/index.html': [join(HERE, 'index.html'), 'text/html; charset=utf-8'],
  '/dist/app.js': [join(HERE, 'dist', 'app.js'), 'text/javascript; charset=utf-8'],
  '/dist/app.js.map': [join(HERE, 'dist', 'app.js.map'), 'application/json; charset=utf-8'],
};

export interface DappServer {
  /** The page's origin, `http://<host>:<port>` (what the app lists). */
  origin: string;
  close(): Promise<void>;
}

/** Serves the page on `host:port` (0: a free port). The bundle must be built (`build.ts`). */
export async function startDappServer(o: { port?: number; host?: string } = {}): Promise<DappServer> {
  const server = createServer((req, res) => {
    const entry = FILES[new URL(req.url ?? '/', 'http://x').pathname];
    const fail = (status: number, text: string) =>
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'method not allowed');
    if (!entry) return fail(404, 'not found');
    void readFile(entry[0]).then(
      (body) => {
        res.writeHead(200, { 'content-type': entry[1], 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => fail(404, 'not built: run npm run example:apps'),
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? DEFAULT_DAPP_PORT, o.host ?? '127.0.0.1', () => ok());
  });
  const addr = server.address() as AddressInfo;
  return {
    origin: `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string' }, host: { type: 'string' } },
  });
  const port = values.port === undefined ? DEFAULT_DAPP_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be 0–65535');
  const s = await startDappServer({ port, ...(values.host ? { host: values.host } : {}) });
  const page = new URL(`${s.origin}/`);
  if (process.env.COINWALLET_URL) page.searchParams.set('api', process.env.COINWALLET_URL);
  if (process.env.COINWALLET_API_KEY) page.searchParams.set('key', process.env.COINWALLET_API_KEY);
  process.stdout.write(`apps dapp: ${page.href}\n  its origin, for the app's list: ${s.origin}\n`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`example:apps:serve: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

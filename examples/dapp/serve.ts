/**
 * `npm run example`: serves the example dapp (index.html, app.js) and the complete kit's browser bundle and provider
 * script (dist/kits/kit/, built first when missing or with --rebuild) on loopback, and prints how to open it inside
 * the wallet emulator.
 *
 *   node bin/run-ts.js examples/dapp/serve.ts [--port 4700] [--host 127.0.0.1] [--api http://127.0.0.1:4000] [--rebuild]
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BROWSER_BUNDLE, buildKits, DEFAULT_OUT_DIR } from '../../scripts/build-kits.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const DEFAULT_EXAMPLE_PORT = 4700;
export const DEFAULT_EXAMPLE_API = 'http://127.0.0.1:4000';
/** What the page loads from the kit package. */
const KIT_FILES = new Set([BROWSER_BUNDLE, 'provider.js']);

export interface ExampleServerOptions {
  /** Default {@link DEFAULT_EXAMPLE_PORT}; 0 picks a free port. */
  port?: number;
  host?: string;
  /** The platform the page's kit calls (`resolve`, `price`); default {@link DEFAULT_EXAMPLE_API}. */
  api?: string;
  /** The built complete kit; default dist/kits/kit (built when its bundle is missing). */
  kitDir?: string;
  /** Build the kit even when it exists. */
  rebuild?: boolean;
  log?: (line: string) => void;
}

export interface ExampleServer {
  url: string;
  api: string;
  close(): Promise<void>;
}

const escapeAttr = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startExampleServer(o: ExampleServerOptions = {}): Promise<ExampleServer> {
  const log = o.log ?? (() => undefined);
  const api = new URL(o.api ?? DEFAULT_EXAMPLE_API).origin;
  const kitDir = resolve(o.kitDir ?? join(DEFAULT_OUT_DIR, 'kit'));
  if (o.rebuild || !existsSync(join(kitDir, BROWSER_BUNDLE)) || !existsSync(join(kitDir, 'provider.js'))) {
    if (o.kitDir && resolve(o.kitDir) !== join(DEFAULT_OUT_DIR, 'kit')) {
      throw new Error(`no built kit in ${kitDir}: run \`npm run build:kits\``);
    }
    log('building the complete kit (npm run build:kits -- --only kit)…');
    await buildKits({ only: ['kit'], log });
  }
  const page = readFileSync(join(HERE, 'index.html'), 'utf8').replace('%%COINWALLET_API%%', escapeAttr(api));
  const appJs = readFileSync(join(HERE, 'app.js'), 'utf8');
  const kit = new Map([...KIT_FILES].map((f) => [f, readFileSync(join(kitDir, f), 'utf8')]));

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, {
        'content-type': `${type}; charset=utf-8`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed');
    if (path === '/' || path === '/index.html') return send(200, 'text/html', page);
    if (path === '/app.js') return send(200, 'text/javascript', appJs);
    const file = path.startsWith('/kit/') ? kit.get(path.slice(5)) : undefined;
    if (file !== undefined) return send(200, 'text/javascript', file);
    return send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? DEFAULT_EXAMPLE_PORT, o.host ?? '127.0.0.1', () => ok());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}/`,
    api,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** The command that opens `url` in the wallet emulator. */
export function emulatorCommand(url: string, api: string): string {
  return `npx coinwallet dapp-browser ${url} --allow-unlisted${api === DEFAULT_EXAMPLE_API ? '' : ` --api ${api}`}`;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      api: { type: 'string' },
      rebuild: { type: 'boolean' },
    },
  });
  const port = values.port === undefined ? DEFAULT_EXAMPLE_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be 0–65535');
  const s = await startExampleServer({
    port,
    ...(values.host ? { host: values.host } : {}),
    api: values.api ?? process.env.COINWALLET_API ?? DEFAULT_EXAMPLE_API,
    rebuild: values.rebuild === true,
    log: (l) => process.stderr.write(`${l}\n`),
  });
  process.stdout.write(
    [
      `example dapp: ${s.url}`,
      `  names and prices from ${s.api} (start the platform with \`npm start\`)`,
      `  connect from inside the wallet emulator (in another terminal):`,
      `    ${emulatorCommand(s.url, s.api)}`,
      '',
    ].join('\n'),
  );
  const stop = () => void s.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`example: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

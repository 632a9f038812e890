/**
 * `npm run example`: serves the built complete kit, `dist/kits/kit/` (built first when missing, when its `example/`
 * differs from this folder's files, or with --rebuild), as any static server would, and prints the example's URL
 * (`/example/`, with `?api=` when the platform is not the page's default) and how to open it inside the wallet
 * emulator. The page is the one the package ships: it loads `../provider.js` and `../coinwallet-kit.browser.js`.
 *
 *   node bin/run-ts.js examples/dapp/serve.ts [--port 4700] [--host 127.0.0.1] [--api http://127.0.0.1:4000] [--rebuild]
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  BROWSER_BUNDLE,
  buildKits,
  DEFAULT_OUT_DIR,
  EXAMPLE_FILES,
  EXAMPLE_SOURCE_DIR,
} from '../../scripts/build-kits.ts';

export const DEFAULT_EXAMPLE_PORT = 4700;
/** The platform the page calls when no `?api=` is given: the `coinwallet-api` <meta> of index.html. */
export const DEFAULT_EXAMPLE_API = (() => {
  const html = readFileSync(join(EXAMPLE_SOURCE_DIR, 'index.html'), 'utf8');
  const m = /<meta name="coinwallet-api" content="([^"]+)"/.exec(html);
  if (!m?.[1]) throw new Error('examples/dapp/index.html has no coinwallet-api <meta>');
  return m[1];
})();

export interface ExampleServerOptions {
  /** Default {@link DEFAULT_EXAMPLE_PORT}; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The platform the page's kit calls (`resolve`, `price`); default {@link DEFAULT_EXAMPLE_API}. */
  api?: string;
  /** The complete kit's package directory (built, or unpacked from its tarball); default dist/kits/kit (built when stale). */
  kitDir?: string;
  /** Build the kit even when it is current (default dist/kits/kit only). */
  rebuild?: boolean;
  log?: (line: string) => void;
}

export interface ExampleServer {
  /** The example page: `http://<host>:<port>/example/`, with `?api=` unless the platform is the default. */
  url: string;
  api: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

/** The default build is stale when a served file is missing or its example/ is not this folder's. */
function isStale(kitDir: string): boolean {
  if (![BROWSER_BUNDLE, 'provider.js'].every((f) => existsSync(join(kitDir, f)))) return true;
  return EXAMPLE_FILES.some((f) => {
    const built = join(kitDir, 'example', f);
    return (
      !existsSync(built) || readFileSync(built, 'utf8') !== readFileSync(join(EXAMPLE_SOURCE_DIR, f), 'utf8')
    );
  });
}

export async function startExampleServer(o: ExampleServerOptions = {}): Promise<ExampleServer> {
  const log = o.log ?? (() => undefined);
  const api = new URL(o.api ?? DEFAULT_EXAMPLE_API).origin;
  const defaultDir = join(DEFAULT_OUT_DIR, 'kit');
  const kitDir = resolve(o.kitDir ?? defaultDir);
  if (kitDir === defaultDir) {
    if (o.rebuild || isStale(kitDir)) {
      log('building the complete kit (npm run build:kits -- --only kit)…');
      await buildKits({ only: ['kit'], log });
    }
  } else if (!existsSync(join(kitDir, 'example', 'index.html'))) {
    throw new Error(`no example in ${kitDir}: not a built or unpacked @coinwallet/kit`);
  }

  // A plain static server over the package directory: `/` redirects to the example, nothing outside the directory.
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const fail = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'method not allowed');
    if (url.pathname === '/' || url.pathname === '/example') {
      res.writeHead(302, { location: `/example/${url.search}` }).end();
      return;
    }
    let path: string;
    try {
      path = normalize(join(kitDir, decodeURIComponent(url.pathname)));
    } catch {
      return fail(400, 'bad path');
    }
    if (path !== kitDir && !path.startsWith(kitDir + sep)) return fail(404, 'not found');
    void (async () => {
      const file = (await stat(path).catch(() => null))?.isDirectory() ? join(path, 'index.html') : path;
      const body = await readFile(file).catch(() => null);
      if (!body) return fail(404, 'not found');
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    })();
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? DEFAULT_EXAMPLE_PORT, o.host ?? '127.0.0.1', () => ok());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const page = new URL(`http://${host}:${addr.port}/example/`);
  if (api !== new URL(DEFAULT_EXAMPLE_API).origin) page.searchParams.set('api', api);
  return {
    url: page.href,
    api,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** The command that opens `url` in the wallet emulator (quoted when a shell would glob it). */
export function emulatorCommand(url: string, api: string): string {
  const arg = /[?&]/.test(url) ? `'${url}'` : url;
  return `npx coinwallet dapp-browser ${arg} --allow-unlisted${api === DEFAULT_EXAMPLE_API ? '' : ` --api ${api}`}`;
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

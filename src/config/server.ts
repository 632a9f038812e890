/**
 * The server's section: where the process listens, where the price API is mounted, how long a shutdown waits, and
 * what the browser-facing routes trust (the wallet frames, the identity site, the operator's coin logos).
 */
import { resolve } from 'node:path';
import { ConfigError } from '../config-error.ts';
import { DEFAULT_WALLET_HOST_ORIGINS } from '../core/wallet-hosts.ts';
import { bool, int } from './read.ts';

export interface ServerSection {
  /** `PORT`, default 4000. 0 picks a free port. */
  port: number;
  /** `HOST`, default 127.0.0.1. */
  host: string;
  /** `PRICE_BASE_PATH`, default `/v1/agg`: where the price API is mounted. */
  priceBasePath: string;
  /**
   * `SHUTDOWN_TIMEOUT_MS`, default 10,000: on SIGTERM/SIGINT a process stops accepting, and waits this long at most
   * for the requests in flight before it closes their connections.
   */
  shutdownTimeoutMs: number;
  /**
   * `HEAP_GOVERNOR`, default true: once ready, a heap grown past 1.5 times what the last major collection kept (and
   * by 64 MiB), with no major collection for 30 s, is collected when no expensive work runs (`src/start/heap-governor.ts`);
   * false leaves collections to V8 alone.
   */
  heapGovernor: boolean;
  /**
   * `WALLET_HOST_ORIGINS`: comma-separated origins of the wallet frames `/provider.js` accepts as its host; default
   * `https://wallet.coinwallet.app`. Loopback origins (`http://127.0.0.1:*`, `http://localhost:*`, `http://[::1]:*`:
   * the `coinwallet dapp-browser` emulator) are always trusted in addition (docs/provider.md).
   */
  walletHostOrigins: string[];
  /**
   * `IDENTITY_ORIGIN`: the name-resolution site, the only origin allowed to call `id_connect`; unset → the platform's
   * own origin (the one `/provider.js` is loaded from).
   */
  identityOrigin: string | undefined;
  /**
   * `COIN_IMAGES_DIR`: a folder of operator logos, `<id>.svg` or `<id>.png` per catalog coin id (an SVG wins over a
   * PNG), served at `/assets/coins/<id>.svg` instead of the generated badge; re-read when a file changes. Unset
   * (default) → generated badges only. Relative paths resolve against the working directory; start-up fails when it
   * is not a directory.
   */
  coinImagesDir: string | undefined;
}

export function serverSection(env: NodeJS.ProcessEnv): ServerSection {
  return {
    port: int(env, 'PORT', 4000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    priceBasePath: basePath(env.PRICE_BASE_PATH),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    heapGovernor: bool(env, 'HEAP_GOVERNOR', true),
    walletHostOrigins: walletHostOrigins(env.WALLET_HOST_ORIGINS),
    identityOrigin: identityOrigin(env.IDENTITY_ORIGIN),
    coinImagesDir: env.COIN_IMAGES_DIR ? resolve(env.COIN_IMAGES_DIR) : undefined,
  };
}

function basePath(v: string | undefined): string {
  if (v === undefined || v === '') return '/v1/agg';
  if (!/^(\/[a-z0-9._-]+)+$/i.test(v))
    throw new ConfigError('PRICE_BASE_PATH must be a path such as /v1/agg (no trailing slash)');
  return v;
}

/** `scheme://host[:port]` exactly as a browser reports an origin (lowercase host, no default port, no path). */
function origin(v: string, name: string): string {
  let u: URL | undefined;
  try {
    u = new URL(v);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== v)
    throw new ConfigError(`${name}: ${v} is not an origin such as https://wallet.example.com (no path)`);
  return v;
}

/** `WALLET_HOST_ORIGINS`. */
export function walletHostOrigins(v: string | undefined): string[] {
  if (v === undefined || v.trim() === '') return [...DEFAULT_WALLET_HOST_ORIGINS];
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => origin(s, 'WALLET_HOST_ORIGINS'));
}

/** `IDENTITY_ORIGIN`; undefined → the platform's own origin. */
export function identityOrigin(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  return origin(v, 'IDENTITY_ORIGIN');
}

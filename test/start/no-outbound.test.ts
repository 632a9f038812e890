/**
 * The product opens no connection the operator did not configure: started as `npm start` starts it (embedded, demo
 * data) and asked for REST, the graph and the pages, it connects to nothing but loopback and looks up no name. Every
 * socket connect and every DNS call in this process is recorded; the product's modules are imported only after the
 * recording is in place, so a library that phones home at import time is caught too.
 */
import dns from 'node:dns';
import { mkdtemp, rm } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const attempts: string[] = [];
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** The host a `Socket#connect` call names; null for a Unix socket. */
function hostOf(args: unknown[]): string | null {
  const first = args[0];
  const opts = Array.isArray(first) ? first[0] : first;
  if (typeof opts === 'object' && opts !== null) {
    const o = opts as { host?: unknown; path?: unknown };
    return o.path !== undefined ? null : String(o.host ?? 'localhost');
  }
  if (typeof opts === 'number') return typeof args[1] === 'string' ? args[1] : 'localhost';
  return null; // a path given as a string
}

function record(): void {
  const connect = net.Socket.prototype.connect as (...a: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const host = hostOf(args);
    if (host !== null && !LOOPBACK.test(host)) attempts.push(`connect ${host}`);
    return connect.apply(this, args);
  } as typeof net.Socket.prototype.connect;
  for (const api of [dns, dns.promises] as unknown as Record<string, unknown>[])
    for (const name of Object.keys(api).filter((n) => /^(lookup|resolve)/.test(n))) {
      const fn = api[name];
      if (typeof fn !== 'function') continue;
      api[name] = function (this: unknown, ...args: unknown[]) {
        // An address given as text is no query (Fastify's listen "looks up" its HOST, 127.0.0.1): names only.
        if (net.isIP(String(args[0])) === 0) attempts.push(`dns.${name} ${String(args[0])}`);
        return (fn as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
  syncBuiltinESMExports();
}

let dir: string;
let product: { url: string; ready: Promise<void>; close(): Promise<void> } | undefined;

beforeAll(async () => {
  record();
  dir = await mkdtemp(join(tmpdir(), 'cw-no-outbound-'));
  const { loadConfig } = await import('../../src/config.ts');
  const { startProduct } = await import('../../src/start/product.ts');
  const cfg = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DEMO_DAYS: '3',
    LOG_LEVEL: 'silent',
    // What is checked here is where the product connects, not how it sheds load: on a busy machine the event loop's
    // lag right after start-up could make a request an OVERLOADED 503.
    SHED_LAG_MS: '0',
  });
  product = await startProduct(cfg, {});
  await product.ready;
}, 120_000);

afterAll(async () => {
  await product?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('no traffic the operator did not configure', () => {
  it('serves REST, the graph and the pages while connecting to loopback only, with no DNS lookup', async () => {
    const url = product?.url ?? '';
    const get = async (path: string) => (await fetch(`${url}${path}`)).status;
    expect(await get('/healthz')).toBe(200);
    expect(await get('/v1/agg/simple/price?ids=litecoin&vs_currencies=usd')).toBe(200);
    expect(await get('/portal')).toBe(200);
    expect(await get('/admin')).toBe(200);
    expect(await get('/provider.js')).toBe(200);
    const graph = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ coin(id: "litecoin") { id price } }' }),
    });
    expect(graph.status).toBe(200);
    expect(((await graph.json()) as { data: unknown }).data).toMatchObject({ coin: { id: 'litecoin' } });
    expect(attempts).toEqual([]);
  });

  it('the recording is live: a connection by name is seen, with its lookup', async () => {
    const before = attempts.length;
    // By name, to loopback: recorded as a name (and its DNS call), answered from the hosts file, refused locally.
    await new Promise<void>((resolve) => {
      const s = net.connect({ host: 'localhost', port: 9 });
      s.on('error', () => resolve());
      s.on('connect', () => {
        s.destroy();
        resolve();
      });
    });
    expect(attempts.slice(before)).toEqual(['connect localhost', 'dns.lookup localhost']);
    attempts.length = before;
  });
});

/**
 * The kits as published: `scripts/build-kits.ts` builds all 20 packages into a temp dir; the complete kit and a
 * per-coin kit are packed with `npm pack` and unpacked into a consumer project's node_modules, where
 *
 * - a TypeScript consumer compiles against the packed declarations (browser libs without Node's types, and Node's
 *   types without the DOM; `skipLibCheck: false`), `@ts-expect-error` lines included;
 * - the packed ESM bundle (the consumer's node_modules/@coinwallet/kit/index.js), imported in Node, calls `price` and
 *   `resolve` over HTTP against the embedded router started with the kit's manifest in **safelist** mode (only
 *   persisted documents run), with an API key, and meets the router's real 429 (`RATE_LIMITED` with `retryAfterMs`);
 * - the browser bundle defines its global.
 */
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_BUNDLE, buildKits, kitSpecs } from '../../scripts/build-kits.ts';
import type { BuiltKit } from '../../scripts/build-kits.ts';
import type * as KitModule from '../../src/kit/index.ts';
import { KIT_PERSISTED_DOCUMENTS_PATH } from '../../src/server/browser/kit-manifest.ts';
import { wallet } from '../accounts/harness.ts';
import { graphHarness } from '../graph/router-harness.ts';
import type { GraphHarness } from '../graph/router-harness.ts';
import { kitRouterServer, linkName, otherIp } from './support.ts';
import type { KitRouterServer } from './support.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const tmp = mkdtempSync(join(tmpdir(), 'cw-kits-'));
const outDir = join(tmp, 'dist');
const consumer = join(tmp, 'consumer');
let built: BuiltKit[];
/** Packed file lists, by package directory. */
const packed: Record<string, string[]> = {};
let g: GraphHarness;
let server: KitRouterServer;
let baseUrl: string;
let apiKey: string;
const name = `kit-${Date.now().toString(36)}.coin`;
const owner = wallet();

/** `npm pack` of a built package into `tmp`, unpacked as the consumer's node_modules/<name>; the packed file list. */
async function packAndInstall(dir: string, pkgName: string): Promise<string[]> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: dir });
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (!info) throw new Error(`npm pack gave no result for ${dir}`);
  const target = join(consumer, 'node_modules', ...pkgName.split('/'));
  mkdirSync(target, { recursive: true });
  await run('tar', ['-xzf', join(tmp, info.filename), '-C', target, '--strip-components=1']);
  return info.files.map((f) => f.path).sort();
}

beforeAll(async () => {
  built = await buildKits({ outDir });
  mkdirSync(consumer, { recursive: true });
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  packed.kit = await packAndInstall(join(outDir, 'kit'), '@coinwallet/kit');
  packed['kit-ltc'] = await packAndInstall(join(outDir, 'kit-ltc'), '@coinwallet/kit-ltc');

  // The graph, with a name linked for LTC (set up through the harness's own router, from other client addresses so
  // the kit's keyless budget below is untouched), and a router that runs the kit's persisted documents only.
  g = await graphHarness({ keylessPerMinute: 5 });
  await linkName(g, name, owner);
  apiKey = (await g.makeKey('pro')).key;
  server = await kitRouterServer(g);
  baseUrl = server.baseUrl;
}, 180_000);

afterAll(async () => {
  await server?.close();
  await g?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the build', () => {
  it('makes the complete kit and one package per coin, each with every file', () => {
    expect(built.map((b) => b.spec.name)).toEqual(kitSpecs().map((s) => s.name));
    expect(built).toHaveLength(20);
    expect(readdirSync(outDir).sort()).toEqual(
      kitSpecs()
        .map((s) => s.dir)
        .sort(),
    );
    for (const b of built) {
      for (const f of [
        'index.js',
        'index.d.ts',
        BROWSER_BUNDLE,
        'provider.js',
        'persisted-documents.json',
        'README.md',
        'package.json',
      ]) {
        expect(existsSync(join(b.path, f)), `${b.spec.name}: ${f}`).toBe(true);
      }
      const pkg = JSON.parse(readFileSync(join(b.path, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(pkg).toMatchObject({
        name: b.spec.name,
        type: 'module',
        types: './index.d.ts',
        sideEffects: false,
      });
      expect(readFileSync(join(b.path, 'README.md'), 'utf8')).not.toMatch(/\{\{|\}\}/);
      expect(readFileSync(join(b.path, 'persisted-documents.json'), 'utf8')).toBe(
        readFileSync(KIT_PERSISTED_DOCUMENTS_PATH, 'utf8'),
      );
    }
    const ltc = built.find((b) => b.spec.dir === 'kit-ltc') as BuiltKit;
    expect(readFileSync(join(ltc.path, 'README.md'), 'utf8')).toMatch(/Litecoin \(LTC\)/);
    expect(readFileSync(join(ltc.path, 'index.d.ts'), 'utf8')).toMatch(
      /createSDK\(options: SDKOptions\): CoinSDK<"LTC">/,
    );
  });

  it('npm pack ships exactly the listed files (complete kit and a per-coin kit)', () => {
    const expected = [
      'README.md',
      BROWSER_BUNDLE,
      'index.d.ts',
      'index.js',
      'package.json',
      'persisted-documents.json',
      'provider.js',
    ];
    for (const dir of ['kit', 'kit-ltc']) {
      const files = packed[dir] ?? [];
      // The complete kit also ships the example dapp (test/browser/example.e2e.ts runs it from the tarball).
      const want = dir === 'kit' ? [...expected, 'example/app.js', 'example/index.html'] : expected;
      expect(files.filter((f) => !f.startsWith('types/'))).toEqual(want.sort());
      expect(files).toEqual(
        expect.arrayContaining(['types/index.d.ts', 'types/types.d.ts', 'types/errors.d.ts']),
      );
      // Only the public declarations: nothing of the generated documents.
      expect(files.some((f) => f.includes('generated'))).toBe(false);
    }
  });
});

describe('a TypeScript consumer of the packed declarations', () => {
  const consumerTs = `
import { createSDK, isApiError, KIT_COINS, KitError } from '@coinwallet/kit';
import type { KitTicker, PriceResult, Resolution } from '@coinwallet/kit';
import { COIN, createSDK as createLtcSDK, TICKER } from '@coinwallet/kit-ltc';

const sdk = createSDK({ baseUrl: 'https://platform.example', apiKey: 'key', timeoutMs: 5000 });
export const r: Promise<Resolution<'DOGE'>> = sdk.resolve('alice.coin', 'DOGE');
export const p: Promise<PriceResult<'litecoin', 'usd' | 'eur'>> = sdk.price(['litecoin'], ['usd', 'eur']);
export const first: KitTicker = KIT_COINS[0].ticker;
export async function use(): Promise<string> {
  try {
    const x = await sdk.resolve('alice.coin', 'LTC');
    if (x.status === 'found') return x.address;
    const { prices, missing } = await sdk.price(['litecoin'], ['usd']);
    const usd: number | null = prices.litecoin.usd;
    return String(usd) + missing.join();
  } catch (e) {
    if (e instanceof KitError) return String(e.code) + (e.retryAfterMs ?? 0);
    if (isApiError(e)) return e.code;
    throw e;
  }
}
// @ts-expect-error not a kit coin
void sdk.connect(['BTC']);
// @ts-expect-error resolve needs a ticker in the complete kit
void sdk.resolve('alice.coin');

const ltc = createLtcSDK({ baseUrl: 'https://platform.example' });
export const t: 'LTC' = TICKER;
export const id: 'litecoin' = COIN.coinId;
export const q: Promise<{ usd: number | null }> = ltc.quote(['usd']);
export const lr: Promise<Resolution<'LTC'>> = ltc.resolve('alice.coin');
export const account = ltc.connect().then((c) => c.account?.address ?? null);
// @ts-expect-error the per-coin kit connects its own coin only
void ltc.connect(['DOGE']);
`;

  /** Compiles consumer.ts with a tsconfig of these `compilerOptions` (strict, NodeNext, no skipLibCheck). */
  const tsc = async (options: Record<string, unknown>) => {
    writeFileSync(join(consumer, 'consumer.ts'), consumerTs);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: false,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          ...options,
        },
        files: ['consumer.ts'],
      }),
    );
    try {
      await run(process.execPath, [TSC, '-p', join(consumer, 'tsconfig.json')]);
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`tsc failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  };

  it('compiles for browsers (DOM, no Node types)', async () => {
    await tsc({ lib: ['es2022', 'dom'], types: [] });
  });

  it('compiles for Node (Node types, no DOM)', async () => {
    await tsc({ lib: ['es2022'], types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] });
  });
});

describe('the packed ESM bundle in Node, against the router (persisted documents only)', () => {
  const load = async (): Promise<typeof KitModule> =>
    (await import(
      pathToFileURL(join(consumer, 'node_modules', '@coinwallet', 'kit', 'index.js')).href
    )) as typeof KitModule;

  it('price: the router’s figures, explicit nulls and missing ids', async () => {
    const kit = await load();
    const sdk = kit.createSDK({ baseUrl, apiKey });
    const r = await sdk.price(['litecoin', 'dogecoin', 'no-such-coin'], ['usd', 'eur']);
    const want = await g.gql(
      '{ coins(ids: ["litecoin", "dogecoin"]) { edges { node { id usd: price eur: price(currency: "eur") } } } }',
      {
        ip: otherIp(),
      },
    );
    const edges = (
      want.body.data?.['coins'] as { edges: { node: { id: string; usd: number; eur: number } }[] }
    ).edges;
    expect(edges).toHaveLength(2);
    for (const { node } of edges) {
      expect(r.prices[node.id as 'litecoin']).toEqual({ usd: node.usd, eur: node.eur });
      expect(typeof node.usd).toBe('number');
    }
    expect(r.prices['no-such-coin']).toEqual({ usd: null, eur: null });
    expect(r.missing).toEqual(['no-such-coin']);
  });

  it('resolve: found, address-not-linked, name-not-found; a malformed name is an API error', async () => {
    const kit = await load();
    const sdk = kit.createSDK({ baseUrl, apiKey });
    expect(await sdk.resolve(name, 'LTC')).toMatchObject({
      status: 'found',
      name,
      ticker: 'LTC',
      address: owner.address,
    });
    expect(await sdk.resolve(name, 'DOGE')).toEqual({ status: 'address-not-linked', name, ticker: 'DOGE' });
    expect(await sdk.resolve('nobody-here.coin', 'LTC')).toEqual({
      status: 'name-not-found',
      name: 'nobody-here.coin',
      ticker: 'LTC',
    });
    const e = await sdk.resolve('not a name', 'LTC').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(kit.KitError);
    expect(e).toMatchObject({ source: 'api', code: 'INVALID_NAME' });
  });

  it('the per-coin kit resolves for its coin', async () => {
    const ltc = (await import(
      pathToFileURL(join(consumer, 'node_modules', '@coinwallet', 'kit-ltc', 'index.js')).href
    )) as {
      createSDK: (o: { baseUrl: string; apiKey: string }) => {
        resolve(n: string): Promise<unknown>;
        quote(v: string[]): Promise<Record<string, number | null>>;
      };
    };
    const sdk = ltc.createSDK({ baseUrl, apiKey });
    expect(await sdk.resolve(name)).toMatchObject({ status: 'found', ticker: 'LTC', address: owner.address });
    const q = await sdk.quote(['usd']);
    expect(typeof q['usd']).toBe('number');
  });

  it('an unknown API key is refused; the keyless budget ends in RATE_LIMITED with retryAfterMs', async () => {
    const kit = await load();
    const bad = await kit
      .createSDK({ baseUrl, apiKey: 'not-a-key' })
      .price(['litecoin'], ['usd'])
      .catch((x: unknown) => x);
    expect(bad).toMatchObject({ source: 'api', status: 401 });
    const keyless = kit.createSDK({ baseUrl, maxRetries: 0 });
    let err: unknown;
    for (let i = 0; i < 10 && err === undefined; i++) {
      await keyless.resolve(name, 'LTC').catch((x: unknown) => (err = x));
    }
    expect(err).toBeInstanceOf(kit.KitError);
    const e = err as KitModule.KitError;
    expect(e).toMatchObject({ source: 'api', code: 'RATE_LIMITED', status: 429 });
    expect(e.retryAfterMs).toBeGreaterThanOrEqual(1000);
    // A request leaves the sliding window 60 to 66 s after it was counted (tenths of a window).
    expect(e.retryAfterMs).toBeLessThanOrEqual(66_000);
  });

  it('the browser bundle defines its global (CoinWalletKit, CoinWalletKitLTC)', () => {
    for (const [dir, global] of [
      ['kit', 'CoinWalletKit'],
      ['kit-ltc', 'CoinWalletKitLTC'],
    ] as const) {
      const ctx: Record<string, unknown> = {};
      runInNewContext(readFileSync(join(outDir, dir, BROWSER_BUNDLE), 'utf8'), ctx);
      const g = ctx[global] as Record<string, unknown>;
      expect(typeof g['createSDK']).toBe('function');
      expect(typeof g['KitError']).toBe('function');
    }
  });
});

/**
 * The kit's `resolve` against the real graph, in process: a router that runs the kit's persisted documents only
 * (safelist, `src/kit/generated/persisted-documents.json`), reached through a `fetch` that hands the request to
 * `router.handle` (no port). Every outcome of `nameResolution` as the kit reports it — found, a missing name, a
 * private name (the same answer), a name without an address for the coin — and a malformed name as the API's error.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import { createSDK, KitError } from '../../src/kit/index.ts';
import { bindTicker } from '../../src/kit/sdk.ts';
import type { CoinWalletSDK, FetchLike } from '../../src/kit/index.ts';
import { KIT_PERSISTED_DOCUMENTS_PATH } from '../../src/server/browser/kit-manifest.ts';
import { signIn, wallet } from '../accounts/harness.ts';
import { graphHarness } from '../graph/router-harness.ts';
import type { GraphHarness } from '../graph/router-harness.ts';
import { linkName, otherIp } from './support.ts';

let g: GraphHarness;
let router: Router;
let sdk: CoinWalletSDK;
const owner = wallet();
const name = `kit-graph-${Date.now().toString(36)}.coin`;
const hidden = `kit-hidden-${Date.now().toString(36)}.coin`;
/** Every request the kit sent, as the router received it. */
const bodies: { documentId?: string }[] = [];
const manifest = JSON.parse(readFileSync(KIT_PERSISTED_DOCUMENTS_PATH, 'utf8')) as Record<string, string>;
/** The operation body of the kit's last request (its persisted id looked up in the manifest). */
const lastOperation = (): string => manifest[bodies.at(-1)?.documentId ?? ''] ?? '';
/** The one field the kit asks since `resolveName` was deprecated. */
const ONE_FIELD = /^query KitResolveName\([^)]*\) \{ nameResolution\(name: \$name, asset: \$asset\) \{/;

/** A WHATWG-shaped fetch onto the router's transport-free `handle`. */
const routerFetch: FetchLike = async (_url, init) => {
  const body = JSON.parse(init.body) as { documentId?: string };
  bodies.push(body);
  const r = await router.handle({
    method: init.method,
    headers: Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v])),
    search: '',
    body,
    socketIp: otherIp(),
  });
  return {
    status: r.status,
    headers: { get: (n: string) => r.headers[n.toLowerCase()] ?? null },
    text: async () => r.body,
  };
};

beforeAll(async () => {
  g = await graphHarness();
  await linkName(g, name, owner);
  await linkName(g, hidden, owner);
  const token = await signIn(g.rest, owner);
  const priv = await g.gql('mutation ($n: String!) { setNamePrivacy(name: $n, private: true) { name } }', {
    variables: { n: hidden },
    headers: { authorization: `Bearer ${token}` },
    ip: otherIp(),
  });
  expect(priv.body.errors).toBeUndefined();
  router = await createRouter({
    access: g.access,
    persisted: { manifest: KIT_PERSISTED_DOCUMENTS_PATH, mode: 'safelist' },
    subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
  });
  sdk = createSDK({ baseUrl: 'https://platform.test', fetch: routerFetch });
}, 120_000);

afterAll(async () => {
  await router?.stop();
  await g?.close();
});

describe("the kit's resolve over nameResolution (safelisted KitResolveName)", () => {
  it('found: the linked address, the name normalised', async () => {
    const r = await sdk.resolve(` ${name.toUpperCase()}`, 'LTC');
    expect(r).toEqual({
      status: 'found',
      name,
      ticker: 'LTC',
      address: owner.address,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(lastOperation()).toMatch(ONE_FIELD);
  });

  it('a name without an address for the coin: address-not-linked', async () => {
    expect(await sdk.resolve(name, 'DOGE')).toEqual({ status: 'address-not-linked', name, ticker: 'DOGE' });
    expect(lastOperation()).toMatch(ONE_FIELD);
  });

  it('a missing name and a private one (linked for the coin): both name-not-found, normalised by the API', async () => {
    expect(await sdk.resolve(' Nobody-Kit.coin', 'LTC')).toEqual({
      status: 'name-not-found',
      name: 'nobody-kit.coin',
      ticker: 'LTC',
    });
    expect(await sdk.resolve(hidden.toUpperCase(), 'LTC')).toEqual({
      status: 'name-not-found',
      name: hidden,
      ticker: 'LTC',
    });
  });

  it('a malformed name is the API error INVALID_NAME; every request was one persisted document id', async () => {
    const e = await sdk.resolve('ab.coin', 'LTC').then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(KitError);
    expect(e).toMatchObject({ source: 'api', code: 'INVALID_NAME' });
    expect(lastOperation()).toMatch(ONE_FIELD);
    for (const b of bodies) expect(Object.keys(b).sort()).toEqual(['documentId', 'variables']);
  });
});

describe("the kit's resolve of a list over resolveNames (safelisted KitResolveNames)", () => {
  it('every outcome in order, a malformed name as its own invalid item; one request per 100 pairs', async () => {
    const before = bodies.length;
    const r = await sdk.resolve([
      { name: ` ${name.toUpperCase()}`, ticker: 'LTC' },
      { name, ticker: 'DOGE' },
      { name: 'nobody-kit.coin', ticker: 'LTC' },
      { name: hidden, ticker: 'LTC' },
      { name: 'ab.coin', ticker: 'LTC' },
    ]);
    expect(r).toEqual([
      { status: 'found', name, ticker: 'LTC', address: owner.address, updatedAt: expect.any(String) },
      { status: 'address-not-linked', name, ticker: 'DOGE' },
      { status: 'name-not-found', name: 'nobody-kit.coin', ticker: 'LTC' },
      { status: 'name-not-found', name: hidden, ticker: 'LTC' },
      {
        status: 'invalid',
        name: 'ab.coin',
        ticker: 'LTC',
        code: 'INVALID_NAME',
        message: expect.stringMatching(/^a name is <label>\.coin/),
      },
    ]);
    expect(bodies.length - before).toBe(1);
    expect(lastOperation()).toMatch(
      /^query KitResolveNames\(\$names: \[NameQuery!\]!\) \{ resolveNames\(names: \$names\)/,
    );
    // 150 pairs: two requests (100 + 50), answers in the order given.
    const many = Array.from({ length: 150 }, (_, i) => ({
      name: i === 120 ? name : `kit-many-${i}.coin`,
      ticker: 'LTC' as const,
    }));
    const at = bodies.length;
    const all = await sdk.resolve(many);
    expect(bodies.length - at).toBe(2);
    expect(all).toHaveLength(150);
    expect(all[120]).toMatchObject({ status: 'found', name });
    expect(all.filter((x) => x.status === 'name-not-found')).toHaveLength(149);
  });

  it('the per-coin kit resolves a list of names for its coin; bad arguments fail before any request', async () => {
    const ltc = bindTicker('LTC')({ baseUrl: 'https://platform.test', fetch: routerFetch });
    expect(await ltc.resolve([name, 'nobody-kit.coin'])).toEqual([
      expect.objectContaining({ status: 'found', ticker: 'LTC' }),
      { status: 'name-not-found', name: 'nobody-kit.coin', ticker: 'LTC' },
    ]);
    const at = bodies.length;
    expect(await sdk.resolve([])).toEqual([]);
    for (const bad of [
      [{ name: '', ticker: 'LTC' }],
      [{ name: 'a.coin', ticker: 'ltc' }],
      [null],
      'x' as never,
    ])
      await expect(sdk.resolve(bad as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(bodies.length).toBe(at);
  });
});

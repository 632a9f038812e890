/**
 * The kit (src/kit/) against a fake `fetch`: persisted document ids only on the wire, typed results with explicit
 * nulls and `missing`, the three resolution outcomes, API errors as KitError, 429 honoured with Retry-After (fake
 * timers), timeouts and aborts. The provider, the per-coin binding and the ticker table: provider.test.ts.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KitError, createSDK, isApiError, isKitError, isProviderError } from '../../src/kit/index.ts';
import type { FetchLike, SDKOptions } from '../../src/kit/index.ts';
import { parseRetryAfter } from '../../src/kit/http.ts';
import { KIT_PERSISTED_DOCUMENTS_PATH } from '../../src/server/browser/kit-manifest.ts';
import { BASE, coinsAnswer, fakeFetch, rejection } from './fakes.ts';

const manifest = JSON.parse(readFileSync(KIT_PERSISTED_DOCUMENTS_PATH, 'utf8')) as Record<string, string>;
/** Operation name → persisted id, from the generated manifest. */
const ids = new Map<string, string>();
for (const [id, body] of Object.entries(manifest))
  for (const d of parse(body).definitions)
    if (d.kind === Kind.OPERATION_DEFINITION && d.name) ids.set(d.name.value, id);

const sdkWith = (fetch: FetchLike, o: Partial<SDKOptions> = {}) => createSDK({ baseUrl: BASE, fetch, ...o });

describe('the persisted documents', () => {
  it('are the generated manifest: sha256 ids of the bodies, KitLivePrices, KitPrice, KitResolveName and KitResolveNames', () => {
    expect([...ids.keys()].sort()).toEqual([
      'KitLivePrices',
      'KitPrice',
      'KitResolveName',
      'KitResolveNames',
    ]);
    for (const [id, body] of Object.entries(manifest)) {
      expect(id).toBe(`sha256:${createHash('sha256').update(body).digest('hex')}`);
    }
  });

  it('the kit imports no server code: only its own modules (and node:url in the Node-only manifest.ts)', () => {
    const dir = join(import.meta.dirname, '..', '..', 'src', 'kit');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'/g)) {
        const spec = m[1] as string;
        if (f === 'manifest.ts' && spec === 'node:url') continue;
        expect(spec, `${f} imports ${spec}`).toMatch(/^\.\/(?!\.)[\w/.-]+\.ts$/);
      }
    }
  });
});

describe('price', () => {
  it('sends only { documentId, variables } per currency and gives every id every currency, null when unquoted', async () => {
    const { fetch, sent } = fakeFetch((req) =>
      req.body.variables?.['currency'] === 'usd'
        ? coinsAnswer({ litecoin: 80.5, dogecoin: null })
        : coinsAnswer({ litecoin: 74.1, dogecoin: 0.11 }),
    );
    const sdk = sdkWith(fetch, { apiKey: 'k3y' });
    const r = await sdk.price(['litecoin', 'dogecoin', 'no-such-coin'], ['usd', 'eur']);
    expect(r).toEqual({
      prices: {
        litecoin: { usd: 80.5, eur: 74.1 },
        dogecoin: { usd: null, eur: 0.11 },
        'no-such-coin': { usd: null, eur: null },
      },
      missing: ['no-such-coin'],
    });
    expect(sent).toHaveLength(2);
    for (const s of sent) {
      expect(s.url).toBe(`${BASE}/graphql`);
      expect(s.method).toBe('POST');
      expect(s.headers).toMatchObject({ 'content-type': 'application/json', 'x-sp-api-key': 'k3y' });
      expect(Object.keys(s.body).sort()).toEqual(['documentId', 'variables']);
      expect(s.body.documentId).toBe(ids.get('KitPrice'));
    }
    expect(sent.map((s) => s.body.variables)).toEqual([
      { ids: ['litecoin', 'dogecoin', 'no-such-coin'], currency: 'usd', first: 3 },
      { ids: ['litecoin', 'dogecoin', 'no-such-coin'], currency: 'eur', first: 3 },
    ]);
  });

  it('sends no key header when keyless, trims the base URL, and splits long id lists in calls of 100', async () => {
    const { fetch, sent } = fakeFetch(() => coinsAnswer({}));
    const many = Array.from({ length: 230 }, (_, i) => `coin-${i}`);
    const r = await createSDK({ baseUrl: `${BASE}/`, fetch }).price(many, ['usd']);
    expect(sent.map((s) => (s.body.variables?.['ids'] as string[]).length)).toEqual([100, 100, 30]);
    expect(sent[0]?.url).toBe(`${BASE}/graphql`);
    expect(sent[0]?.headers['x-sp-api-key']).toBeUndefined();
    expect(r.missing).toHaveLength(230);
    expect(r.prices['coin-7']).toEqual({ usd: null });
  });

  it('refuses bad arguments before any call', async () => {
    const { fetch, sent } = fakeFetch(() => coinsAnswer({}));
    const sdk = sdkWith(fetch);
    expect((await rejection(sdk.price([], ['usd']))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(sdk.price(['litecoin'], []))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(sdk.price([''], ['usd']))).code).toBe('INVALID_ARGUMENT');
    expect(sent).toHaveLength(0);
  });
});

describe('resolve', () => {
  /** The API's answer: `nameResolution`, one member of its union (typed by `__typename`). */
  const answer = (nameResolution: unknown) => ({ body: { data: { nameResolution } } });

  it('asks one field, nameResolution, with the members it handles (the persisted KitResolveName body)', () => {
    const body = manifest[ids.get('KitResolveName') ?? ''] ?? '';
    const op = parse(body).definitions[0];
    const roots = op?.kind === Kind.OPERATION_DEFINITION ? op.selectionSet.selections : [];
    expect(roots.map((r) => (r.kind === Kind.FIELD ? r.name.value : r.kind))).toEqual(['nameResolution']);
    for (const member of ['NameResolution', 'NameNotFound', 'AddressNotLinked'])
      expect(body).toContain(`... on ${member} {`);
    expect(body).toContain('__typename');
  });

  it('found: the address, with the persisted KitResolveName id and { name, asset }', async () => {
    const { fetch, sent } = fakeFetch(() =>
      answer({
        __typename: 'NameResolution',
        name: 'alice.coin',
        address: 'ltc1qxyz',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    const r = await sdkWith(fetch).resolve('Alice.coin', 'LTC');
    expect(r).toEqual({
      status: 'found',
      name: 'alice.coin',
      ticker: 'LTC',
      address: 'ltc1qxyz',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(sent[0]?.body).toEqual({
      documentId: ids.get('KitResolveName'),
      variables: { name: 'Alice.coin', asset: 'LTC' },
    });
  });

  it('name-not-found and address-not-linked from the typename, never undefined; names as the API gives them', async () => {
    const notFound = fakeFetch(() => answer({ __typename: 'NameNotFound', name: 'ghost.coin' }));
    expect(await sdkWith(notFound.fetch).resolve(' Ghost.coin', 'DOGE')).toEqual({
      status: 'name-not-found',
      name: 'ghost.coin',
      ticker: 'DOGE',
    });
    const notLinked = fakeFetch(() => answer({ __typename: 'AddressNotLinked', name: 'alice.coin' }));
    expect(await sdkWith(notLinked.fetch).resolve('alice.coin', 'DOGE')).toEqual({
      status: 'address-not-linked',
      name: 'alice.coin',
      ticker: 'DOGE',
    });
  });

  it('a member it does not know (a newer API), or null without an error, is BAD_RESPONSE', async () => {
    const newer = fakeFetch(() => answer({ __typename: 'NameSuspended' }));
    const e = await rejection(sdkWith(newer.fetch).resolve('alice.coin', 'LTC'));
    expect(e).toMatchObject({ source: 'kit', code: 'BAD_RESPONSE' });
    expect(e.message).toMatch(/NameSuspended/);
    const empty = fakeFetch(() => answer(null));
    expect(await rejection(sdkWith(empty.fetch).resolve('alice.coin', 'LTC'))).toMatchObject({
      source: 'kit',
      code: 'BAD_RESPONSE',
    });
  });

  it('refuses an unknown or lowercase ticker and an empty name', async () => {
    const { fetch, sent } = fakeFetch(() => answer(null));
    const sdk = sdkWith(fetch);
    const lower = await rejection(sdk.resolve('alice.coin', 'ltc' as 'LTC'));
    expect(lower).toMatchObject({ source: 'kit', code: 'INVALID_ARGUMENT' });
    expect(lower.message).toMatch(/uppercase: LTC/);
    expect((await rejection(sdk.resolve('alice.coin', 'SOL' as 'LTC'))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(sdk.resolve(' ', 'LTC'))).code).toBe('INVALID_ARGUMENT');
    expect(sent).toHaveLength(0);
  });
});

describe('resolve of a list', () => {
  const found = (name: string) => ({
    __typename: 'NameResolution',
    name,
    address: `addr-${name}`,
    updatedAt: '2026-01-01T00:00:00.000Z',
  });

  it('one KitResolveNames request per 100 pairs, items in order, a located item error as invalid', async () => {
    const { fetch, sent } = fakeFetch((req) => {
      const names = (req.body.variables?.['names'] ?? []) as { name: string }[];
      return {
        body: {
          data: { resolveNames: names.map((n, i) => (i === 1 ? null : found(n.name))) },
          errors: [{ message: 'bad name', path: ['resolveNames', 1], extensions: { code: 'INVALID_NAME' } }],
        },
      };
    });
    const pairs = Array.from({ length: 130 }, (_, i) => ({ name: `n${i}.coin`, ticker: 'LTC' as const }));
    const r = await sdkWith(fetch).resolve(pairs);
    expect(sent.map((x) => x.body.documentId)).toEqual([
      ids.get('KitResolveNames'),
      ids.get('KitResolveNames'),
    ]);
    expect(sent.map((x) => (x.body.variables?.['names'] as unknown[]).length)).toEqual([100, 30]);
    expect((sent[0]?.body.variables?.['names'] as unknown[])[0]).toEqual({ name: 'n0.coin', asset: 'LTC' });
    expect(r).toHaveLength(130);
    expect(r[0]).toEqual({
      status: 'found',
      name: 'n0.coin',
      ticker: 'LTC',
      address: 'addr-n0.coin',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(r[1]).toEqual({
      status: 'invalid',
      name: 'n1.coin',
      ticker: 'LTC',
      code: 'INVALID_NAME',
      message: 'bad name',
    });
    expect(r[101]).toMatchObject({ status: 'invalid', name: 'n101.coin' });
  });

  it('an error of the whole field (not of an item) fails the call; a null item without an error is BAD_RESPONSE', async () => {
    const whole = fakeFetch(() => ({
      body: {
        data: { resolveNames: null },
        errors: [{ message: 'too many', path: ['resolveNames'], extensions: { code: 'BATCH_TOO_LARGE' } }],
      },
    }));
    expect(await rejection(sdkWith(whole.fetch).resolve([{ name: 'a.coin', ticker: 'LTC' }]))).toMatchObject({
      source: 'api',
      code: 'BATCH_TOO_LARGE',
    });
    const silent = fakeFetch(() => ({ body: { data: { resolveNames: [null] } } }));
    expect(await rejection(sdkWith(silent.fetch).resolve([{ name: 'a.coin', ticker: 'LTC' }]))).toMatchObject(
      {
        code: 'BAD_RESPONSE',
      },
    );
  });
});

describe('API errors', () => {
  it('a GraphQL error is a KitError with extensions.code and the HTTP status', async () => {
    const { fetch } = fakeFetch(() => ({
      status: 200,
      body: {
        data: null,
        errors: [
          {
            message: 'name must end in .coin',
            path: ['nameResolution'],
            extensions: { code: 'INVALID_NAME', http: { status: 400 } },
          },
        ],
      },
    }));
    const e = await rejection(sdkWith(fetch).resolve('bad', 'LTC'));
    expect(e).toMatchObject({
      source: 'api',
      code: 'INVALID_NAME',
      status: 400,
      message: 'name must end in .coin',
    });
    expect(isApiError(e) && isKitError(e) && !isProviderError(e)).toBe(true);
  });

  it('an error beside partial data still fails; HTTP errors without a body and non-JSON answers are typed', async () => {
    const partial = fakeFetch(() => ({
      body: {
        data: { coins: null },
        errors: [{ message: 'unsupported', extensions: { code: 'INVALID_CURRENCY' } }],
      },
    }));
    expect(await rejection(sdkWith(partial.fetch).price(['litecoin'], ['xyz']))).toMatchObject({
      source: 'api',
      code: 'INVALID_CURRENCY',
      status: 200,
    });
    const gateway = fakeFetch(() => ({ status: 502, body: '<html>bad gateway</html>' }));
    expect(await rejection(sdkWith(gateway.fetch).price(['litecoin'], ['usd']))).toMatchObject({
      source: 'api',
      code: 'HTTP_502',
      status: 502,
    });
    const html = fakeFetch(() => ({ status: 200, body: '<html>a page</html>' }));
    expect(await rejection(sdkWith(html.fetch).price(['litecoin'], ['usd']))).toMatchObject({
      source: 'kit',
      code: 'BAD_RESPONSE',
    });
    const key = fakeFetch(() => ({
      status: 401,
      body: { errors: [{ message: 'the API key is pending', extensions: { code: 'API_KEY_PENDING' } }] },
    }));
    expect(await rejection(sdkWith(key.fetch, { apiKey: 'abc' }).price(['x'], ['usd']))).toMatchObject({
      code: 'API_KEY_PENDING',
      status: 401,
    });
  });

  it('network failures, timeouts and aborts', async () => {
    const down = fakeFetch(() => new TypeError('fetch failed'));
    expect((await rejection(sdkWith(down.fetch).price(['litecoin'], ['usd']))).code).toBe('NETWORK_ERROR');
    const slow = fakeFetch(() => 'hang');
    const t = await rejection(sdkWith(slow.fetch, { timeoutMs: 20 }).price(['litecoin'], ['usd']));
    expect(t).toMatchObject({ source: 'kit', code: 'TIMEOUT' });
    const ctl = new AbortController();
    const p = sdkWith(slow.fetch).resolve('alice.coin', 'LTC', { signal: ctl.signal });
    ctl.abort();
    expect((await rejection(p)).code).toBe('ABORTED');
  });

  it('refuses partner credentials and tokens as apiKey, and a base URL that is no http(s) URL', () => {
    const { fetch } = fakeFetch(() => coinsAnswer({}));
    for (const apiKey of ['cwp_secret', 'cws_session', 'cwa_operator']) {
      expect(() => createSDK({ baseUrl: BASE, fetch, apiKey })).toThrow(/price-API key only/);
    }
    expect(() => createSDK({ baseUrl: 'platform.test', fetch })).toThrow(KitError);
    expect(() => createSDK({ baseUrl: 'ftp://platform.test', fetch })).toThrow(/http/);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('429 and Retry-After', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const limited = (retryAfter: string | null) => ({
    status: 429,
    headers: retryAfter === null ? {} : { 'retry-after': retryAfter },
    body: {
      errors: [{ message: 'rate limited', extensions: { code: 'RATE_LIMITED', http: { status: 429 } } }],
    },
  });

  it('waits Retry-After before retrying, then returns the answer', async () => {
    const { fetch, sent } = fakeFetch((_req, n) => (n === 1 ? limited('2') : coinsAnswer({ litecoin: 80 })));
    const p = sdkWith(fetch).price(['litecoin'], ['usd']);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(await p).toEqual({ prices: { litecoin: { usd: 80 } }, missing: [] });
  });

  it('gives up after maxRetries with RATE_LIMITED and retryAfterMs', async () => {
    const { fetch, sent } = fakeFetch(() => limited('1'));
    const p = rejection(sdkWith(fetch, { maxRetries: 2 }).price(['litecoin'], ['usd']));
    await vi.advanceTimersByTimeAsync(2_000);
    const e = await p;
    expect(sent).toHaveLength(3);
    expect(e).toMatchObject({ source: 'api', code: 'RATE_LIMITED', status: 429, retryAfterMs: 1000 });
  });

  it('does not wait longer than maxRetryWaitMs, and backs off 1 s, 2 s without a Retry-After', async () => {
    const long = fakeFetch(() => limited('120'));
    const e = await rejection(sdkWith(long.fetch).price(['litecoin'], ['usd']));
    expect(long.sent).toHaveLength(1);
    expect(e.retryAfterMs).toBe(120_000);

    const bare = fakeFetch((_req, n) => (n < 3 ? limited(null) : coinsAnswer({ litecoin: 1 })));
    const p = sdkWith(bare.fetch).price(['litecoin'], ['usd']);
    await vi.advanceTimersByTimeAsync(999);
    expect(bare.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(bare.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(bare.sent).toHaveLength(3);
    expect((await p).prices.litecoin.usd).toBe(1);
  });

  it('with maxRetries 0 the first 429 is thrown', async () => {
    const { fetch, sent } = fakeFetch(() => limited('1'));
    const e = await rejection(sdkWith(fetch, { maxRetries: 0 }).resolve('a.coin', 'LTC'));
    expect(sent).toHaveLength(1);
    expect(e.code).toBe('RATE_LIMITED');
  });
});

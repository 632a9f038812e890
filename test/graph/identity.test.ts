/**
 * The identity subgraph executed in process (graphql's `graphql()` against the built federated schema) over the names
 * harness (in-memory PGlite, real sessions, wallets with real keys, the REST names API beside it for comparison).
 * The subgraph reads through a counting `Db` proxy, and its own `AuthService` reads through it too, so that batching
 * and the lazy session are asserted by counting SQL statements.
 *
 * This file: the queries (`resolveName`, `nameResolution`, `name`) and the subgraph value. The mutations, sessions,
 * `_entities` and batching are in `identity-mutations.test.ts`; the shared setup is in `support/identity.ts`.
 */
import { describe, expect, it } from 'vitest';
import { call, wallet } from '../names/harness.ts';
import {
  alice,
  bob,
  codes,
  h,
  iso,
  link,
  n,
  name,
  NAME,
  ok,
  PRIVACY,
  readsOf,
  register,
  reset,
  run,
  sg,
  statements,
  UNKNOWN_TOKEN,
  useIdentityGraph,
} from './support/identity.ts';
import type { NameRec } from './support/identity.ts';

useIdentityGraph();

const RESOLVE = `query ($name: String!, $asset: String!) {
  resolveName(name: $name, asset: $asset) { name asset address coin { id } updatedAt }
}`;
/** Every member of `nameResolution`'s union, each field once. */
const RESOLUTION = `query ($name: String!, $asset: String!) {
  nameResolution(name: $name, asset: $asset) {
    __typename
    ... on NameResolution { name asset address coin { id } updatedAt }
    ... on NameNotFound { code message name }
    ... on AddressNotLinked { code message name asset }
  }
}`;

describe('resolveName (deprecated: null for every miss)', () => {
  it('resolves a linked address, with its coin reference, as REST does', async () => {
    await register(alice.token);
    const w = wallet('LTC');
    expect((await link(alice.token, 'LTC', w)).errors).toBeUndefined();
    const d = await ok<{ resolveName: Record<string, unknown> }>(RESOLVE, {
      name: ` ${name.toUpperCase()}`,
      asset: 'LTC',
    });
    expect(d.resolveName).toEqual({
      name,
      asset: 'LTC',
      address: w.address,
      coin: { id: 'litecoin' },
      updatedAt: iso(h.clock.now),
    });
    const rest = await call(h, 'GET', `/api/resolve/${name}?asset=LTC`);
    expect(rest.body).toEqual({ ...d.resolveName, coin: undefined, updatedAt: h.clock.now });
  });

  it('is null, without an error, for a missing name, a missing link and a private name', async () => {
    await register(alice.token);
    const missing = await run(RESOLVE, { name: 'nobody-here.coin', asset: 'LTC' });
    const unlinked = await run(RESOLVE, { name, asset: 'DOGE' });
    await ok(PRIVACY, { name, private: true }, alice.token);
    const hidden = await run(RESOLVE, { name, asset: 'DOGE' });
    for (const r of [missing, unlinked, hidden]) expect(r).toEqual({ data: { resolveName: null } });
    // REST tells the three apart by code (NAME_NOT_FOUND twice: a private name looks missing).
    expect((await call(h, 'GET', `/api/resolve/${name}?asset=DOGE`)).code).toBe('NAME_NOT_FOUND');
  });

  it('refuses a malformed name with INVALID_NAME and a bad asset code with the REST parameter codes', async () => {
    for (const bad of ['ab.coin', 'alice', 'alice.eth', 'ünï.coin']) {
      const r = await run(RESOLVE, { name: bad, asset: 'LTC' });
      expect([bad, codes(r), r.data]).toEqual([bad, ['INVALID_NAME'], { resolveName: null }]);
      expect(r.errors?.[0]?.message).toMatch(/^a name is <label>\.coin/);
    }
    const lower = await run(RESOLVE, { name: 'alice.coin', asset: 'ltc' });
    expect(codes(lower)).toEqual(['INVALID_PARAMETER']);
    expect(lower.errors?.[0]?.message).toBe('asset must be uppercase: LTC, not ltc');
    expect(codes(await run(RESOLVE, { name: 'alice.coin', asset: '' }))).toEqual(['MISSING_PARAMETER']);
    const xyz = await run(RESOLVE, { name: 'alice.coin', asset: 'XYZ' });
    expect([codes(xyz), xyz.errors?.[0]?.extensions['http']]).toEqual([
      ['INVALID_PARAMETER'],
      { status: 400 },
    ]);
  });

  it('never reads the session: a bad token does not fail it', async () => {
    reset();
    const r = await run(RESOLVE, { name: 'nobody-here.coin', asset: 'LTC' }, UNKNOWN_TOKEN);
    expect(r).toEqual({ data: { resolveName: null } });
    expect(readsOf('sessions')).toBe(0);
  });
});

describe('nameResolution', () => {
  type Result = { nameResolution: Record<string, unknown> | null };
  /** REST's answer to the same request: its body, or its error body's code and message. */
  const rest = async (nm: string, asset: string) => {
    const r = await call(h, 'GET', `/api/resolve/${encodeURIComponent(nm)}?asset=${asset}`);
    return { status: r.status, body: r.body['error'] ?? r.body };
  };

  it('found: NameResolution with its coin reference, as REST answers it', async () => {
    await register(alice.token);
    const w = wallet('LTC');
    expect((await link(alice.token, 'LTC', w)).errors).toBeUndefined();
    const d = await ok<Result>(RESOLUTION, { name: ` ${name.toUpperCase()}`, asset: 'LTC' });
    expect(d.nameResolution).toEqual({
      __typename: 'NameResolution',
      name,
      asset: 'LTC',
      address: w.address,
      coin: { id: 'litecoin' },
      updatedAt: iso(h.clock.now),
    });
    const { __typename: _t, coin: _c, ...same } = d.nameResolution ?? {};
    expect(await rest(name, 'LTC')).toEqual({ status: 200, body: { ...same, updatedAt: h.clock.now } });
  });

  it("missing: NameNotFound with REST's NAME_NOT_FOUND code and message, the name normalised", async () => {
    const r = await run(RESOLUTION, { name: ' Nobody-Here.coin ', asset: 'LTC' });
    expect(r).toEqual({
      data: {
        nameResolution: {
          __typename: 'NameNotFound',
          code: 'NAME_NOT_FOUND',
          message: 'no public name "nobody-here.coin" is registered',
          name: 'nobody-here.coin',
        },
      },
    });
    const { __typename: _t, name: _n, ...error } = (r.data as Result).nameResolution ?? {};
    expect(await rest('nobody-here.coin', 'LTC')).toEqual({ status: 404, body: error });
  });

  it('private: the same answer as a missing name, byte for byte apart from the name, linked or not', async () => {
    const absent = `absent-${n}.coin`;
    await register(alice.token);
    expect((await link(alice.token, 'LTC', wallet('LTC'))).errors).toBeUndefined();
    await ok(PRIVACY, { name, private: true }, alice.token);
    // As text with the name blanked: key order, typename, code, message, everything else identical.
    const text = async (nm: string, asset: string, token?: string) =>
      JSON.stringify(await run(RESOLUTION, { name: nm, asset }, token)).replaceAll(nm, '<name>');
    for (const asset of ['LTC', 'DOGE']) {
      const missing = await text(absent, asset);
      expect(missing).toContain('"__typename":"NameNotFound"');
      expect(await text(name, asset)).toBe(missing);
      // Also to its holder, and whatever the session: resolution never reads it.
      expect(await text(name, asset, alice.token)).toBe(missing);
      expect(await text(name, asset, UNKNOWN_TOKEN)).toBe(missing);
    }
    // Selected through the shared `NameResolutionError` interface alone, too.
    const generic = `query ($name: String!) { nameResolution(name: $name, asset: "LTC") {
      __typename ... on NameResolutionError { code message } } }`;
    const blank = async (nm: string) =>
      JSON.stringify(await run(generic, { name: nm })).replaceAll(nm, '<name>');
    expect(await blank(name)).toBe(await blank(absent));
  });

  it("no address for the asset: AddressNotLinked with REST's ADDRESS_NOT_LINKED code and message", async () => {
    await register(alice.token);
    expect((await link(alice.token, 'LTC', wallet('LTC'))).errors).toBeUndefined();
    const r = await run(RESOLUTION, { name, asset: 'DOGE' });
    expect(r).toEqual({
      data: {
        nameResolution: {
          __typename: 'AddressNotLinked',
          code: 'ADDRESS_NOT_LINKED',
          message: `${name} has no DOGE address linked`,
          name,
          asset: 'DOGE',
        },
      },
    });
    const { __typename: _t, name: _n, asset: _a, ...error } = (r.data as Result).nameResolution ?? {};
    expect(await rest(name, 'DOGE')).toEqual({ status: 404, body: error });
  });

  it('a malformed name or asset is still an error (INVALID_NAME, INVALID_PARAMETER, MISSING_PARAMETER)', async () => {
    for (const bad of ['ab.coin', 'alice', 'alice.eth', 'ünï.coin']) {
      const r = await run(RESOLUTION, { name: bad, asset: 'LTC' });
      expect([bad, codes(r), r.data]).toEqual([bad, ['INVALID_NAME'], { nameResolution: null }]);
      expect(r.errors?.[0]?.message).toMatch(/^a name is <label>\.coin/);
      expect(r.errors?.[0]?.extensions['http']).toEqual({ status: 400 });
    }
    const lower = await run(RESOLUTION, { name: 'alice.coin', asset: 'ltc' });
    expect([codes(lower), lower.errors?.[0]?.message]).toEqual([
      ['INVALID_PARAMETER'],
      'asset must be uppercase: LTC, not ltc',
    ]);
    expect(codes(await run(RESOLUTION, { name: 'alice.coin', asset: 'XYZ' }))).toEqual(['INVALID_PARAMETER']);
    expect(codes(await run(RESOLUTION, { name: 'alice.coin', asset: '' }))).toEqual(['MISSING_PARAMETER']);
  });

  it('never reads the session: a bad token does not fail it', async () => {
    reset();
    const r = await run(RESOLUTION, { name: 'nobody-here.coin', asset: 'LTC' }, UNKNOWN_TOKEN);
    expect((r.data as Result).nameResolution).toMatchObject({ __typename: 'NameNotFound' });
    expect(readsOf('sessions')).toBe(0);
  });

  it('deprecates resolveName in favour of nameResolution, which is nullable (null only beside an error)', async () => {
    const d = await ok<{
      __type: { fields: { name: string; isDeprecated: boolean; deprecationReason: string | null }[] };
    }>(
      '{ __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }',
    );
    const field = (f: string) => d.__type.fields.find((x) => x.name === f);
    expect(field('resolveName')).toMatchObject({ isDeprecated: true });
    expect(field('resolveName')?.deprecationReason).toMatch(/^Use `nameResolution`/);
    expect(field('nameResolution')).toMatchObject({ isDeprecated: false });
    const t = sg.schema.getQueryType()?.getFields()['nameResolution']?.type.toString();
    expect(t).toBe('NameResolutionResult');
  });
});

describe('name', () => {
  it('gives a public name and its addresses; holder-only fields only to the holder', async () => {
    await register(alice.token);
    const w = wallet('DOGE', 'p2pkh');
    expect((await link(alice.token, 'DOGE', w)).errors).toBeUndefined();
    const addresses = [
      { asset: 'DOGE', address: w.address, coin: { id: 'dogecoin' }, updatedAt: iso(h.clock.now) },
    ];
    const anon = await ok<{ name: NameRec }>(NAME, { name });
    expect(anon.name).toEqual({ name, private: null, createdAt: null, updatedAt: null, addresses });
    const other = await ok<{ name: NameRec }>(NAME, { name }, bob.token);
    expect(other.name.private).toBeNull();
    const holder = await ok<{ name: NameRec }>(NAME, { name }, alice.token);
    expect(holder.name).toEqual({
      name,
      private: false,
      createdAt: iso(h.clock.now),
      updatedAt: iso(h.clock.now),
      addresses,
    });
  });

  it('is null for a missing or private name; INVALID_NAME when malformed', async () => {
    await register(alice.token);
    expect(await run(NAME, { name: 'nobody-here.coin' })).toEqual({ data: { name: null } });
    await ok(PRIVACY, { name, private: true }, alice.token);
    expect(await run(NAME, { name })).toEqual({ data: { name: null } });
    expect(codes(await run(NAME, { name: 'x.coin' }))).toEqual(['INVALID_NAME']);
  });

  it('reads the session only for holder-only fields: a bad token fails those fields alone', async () => {
    await register(alice.token);
    reset();
    const plain = await run(`query ($name: String!) { name(name: $name) { name } }`, { name }, UNKNOWN_TOKEN);
    expect(plain).toEqual({ data: { name: { name } } });
    expect(readsOf('sessions')).toBe(0);
    const r = await run(
      `query ($name: String!) { name(name: $name) { name private createdAt } }`,
      { name },
      UNKNOWN_TOKEN,
    );
    expect(r.data).toEqual({ name: { name, private: null, createdAt: null } });
    expect(codes(r)).toEqual(['INVALID_SESSION', 'INVALID_SESSION']);
    // Two fields, one session read (memoised for the request).
    expect(readsOf('sessions')).toBe(1);
  });
});

describe('the subgraph value', () => {
  it('is named identity and builds contexts without reading anything', () => {
    reset();
    expect(sg.name).toBe('identity');
    const ctx = sg.contextFor({ headers: { authorization: `Bearer ${UNKNOWN_TOKEN}` } });
    expect(ctx.names.suffix).toBe('coin');
    expect(statements).toEqual([]);
  });
});

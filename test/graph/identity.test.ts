/**
 * The identity subgraph executed in process (graphql's `graphql()` against the built federated schema) over the names
 * harness (in-memory PGlite, real sessions, wallets with real keys, the REST names API beside it for comparison).
 * The subgraph reads through a counting `Db` proxy, and its own `AuthService` reads through it too, so that batching
 * and the lazy session are asserted by counting SQL statements.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthService } from '../../src/accounts/auth.ts';
import * as repo from '../../src/names/name-repo.ts';
import { createIdentitySubgraph } from '../../subgraphs/identity/index.ts';
import type { IdentitySubgraph } from '../../subgraphs/identity/index.ts';
import { call, DOMAIN, harness, signIn, wallet } from '../names/harness.ts';
import type { Harness, Wallet } from '../names/harness.ts';
import { countingDb } from '../support/counting-db.ts';
import { NameService } from '../../src/names/service.ts';

// The CommonJS build of graphql: the one @apollo/subgraph builds the schema with. (Vite resolves a plain import to
// graphql's .mjs build, a second instance whose `graphql()` refuses the schema; Node itself loads the CJS one.)
const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

type User = { token: string; id: string; address: string };

let h: Harness;
let sg: IdentitySubgraph;
let alice: User;
let bob: User;
/** Every statement the subgraph (and its AuthService) ran outside a transaction. */
const statements: string[] = [];
/** Every batch the loaders dispatched. */
const batches: { loader: string; keys: readonly unknown[] }[] = [];
/** A well-formed token that names no session (a malformed one is refused before any read). */
const UNKNOWN_TOKEN = `cws_${'A'.repeat(43)}`;

beforeAll(async () => {
  h = await harness();
  const db = h.db;
  const counted = countingDb(db, statements);
  const now = () => h.clock.now;
  sg = createIdentitySubgraph({
    db: counted,
    auth: new AuthService(counted, { domain: DOMAIN, now }),
    names: new NameService(counted, { suffix: 'coin', network: 'mainnet', now }),
    hooks: { onBatch: (loader, keys) => batches.push({ loader, keys }) },
  });
  alice = await signIn(h);
  bob = await signIn(h);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

async function run(
  source: string,
  variableValues?: Record<string, unknown>,
  token?: string,
): Promise<ExecutionResult> {
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return graphql({ schema: sg.schema, source, variableValues, contextValue: sg.contextFor({ headers }) });
}

async function ok<T = Record<string, unknown>>(
  source: string,
  vars?: Record<string, unknown>,
  token?: string,
): Promise<T> {
  const r = await run(source, vars, token);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as T;
}

const codes = (r: ExecutionResult): unknown[] => (r.errors ?? []).map((e) => e.extensions['code']);
const iso = (ms: number): string => new Date(ms).toISOString();
/** Statements that read `table` (`FROM names` is not `FROM name_addresses`). */
const readsOf = (table: string): number =>
  statements.filter((s) => new RegExp(`\\bFROM ${table}\\b`).test(s)).length;
const keysOf = (loader: string): unknown[][] =>
  batches.filter((b) => b.loader === loader).map((b) => [...b.keys]);
const reset = (): void => {
  statements.length = 0;
  batches.length = 0;
};

let n = 0;
/** A fresh name per test. */
let name: string;
beforeEach(() => {
  name = `graph-${++n}.coin`;
});

type NameRec = {
  name: string;
  private: boolean | null;
  createdAt: string | null;
  updatedAt: string | null;
  addresses: { asset: string; address: string; coin: { id: string } | null; updatedAt: string }[];
};
const RECORD = 'name private createdAt updatedAt addresses { asset address coin { id } updatedAt }';

const REGISTER = `mutation ($name: String!) { registerName(name: $name) { ${RECORD} } }`;
const CHALLENGE = `mutation ($name: String!, $asset: String!, $address: String!) {
  requestAddressChallenge(name: $name, asset: $asset, address: $address) { challenge nonce expiresAt }
}`;
const LINK = `mutation ($name: String!, $asset: String!, $address: String!, $signature: String!, $nonce: String!) {
  linkAddress(name: $name, asset: $asset, address: $address, signature: $signature, nonce: $nonce) { ${RECORD} }
}`;
const UNLINK = `mutation ($name: String!, $asset: String!) { unlinkAddress(name: $name, asset: $asset) { ${RECORD} } }`;
const PRIVACY = `mutation ($name: String!, $private: Boolean!) { setNamePrivacy(name: $name, private: $private) { ${RECORD} } }`;
const TRANSFER = `mutation ($name: String!, $toAddress: String, $toAccountId: ID) {
  transferName(name: $name, toAddress: $toAddress, toAccountId: $toAccountId) { ${RECORD} }
}`;
const RESOLVE = `query ($name: String!, $asset: String!) {
  resolveName(name: $name, asset: $asset) { name asset address coin { id } updatedAt }
}`;
const NAME = `query ($name: String!) { name(name: $name) { ${RECORD} } }`;
/** Every member of `nameResolution`'s union, each field once. */
const RESOLUTION = `query ($name: String!, $asset: String!) {
  nameResolution(name: $name, asset: $asset) {
    __typename
    ... on NameResolution { name asset address coin { id } updatedAt }
    ... on NameNotFound { code message name }
    ... on AddressNotLinked { code message name asset }
  }
}`;
const ENTITIES = `query ($reps: [_Any!]!) {
  _entities(representations: $reps) { ... on Account { id names { name addresses { asset coin { id } } } } }
}`;

async function register(token: string, nm = name): Promise<NameRec> {
  return (await ok<{ registerName: NameRec }>(REGISTER, { name: nm }, token)).registerName;
}

/** Links `w`'s address to `nm` through the graph: a challenge, signed by the wallet's real key, then `linkAddress`. */
async function link(token: string, asset: string, w: Wallet, nm = name): Promise<ExecutionResult> {
  const c = await ok<{ requestAddressChallenge: { challenge: string; nonce: string; expiresAt: string } }>(
    CHALLENGE,
    { name: nm, asset, address: w.address },
    token,
  );
  const { challenge, nonce } = c.requestAddressChallenge;
  return run(LINK, { name: nm, asset, address: w.address, signature: w.sign(challenge), nonce }, token);
}

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

describe('registration mutations', () => {
  it('registers a name for the signed-in account; NAME_TAKEN for anyone after, even when private', async () => {
    const rec = await register(alice.token, ` ${name.toUpperCase()} `);
    expect(rec).toEqual({
      name,
      private: false,
      createdAt: iso(h.clock.now),
      updatedAt: iso(h.clock.now),
      addresses: [],
    });
    await ok(PRIVACY, { name, private: true }, alice.token);
    for (const token of [alice.token, bob.token]) {
      const r = await run(REGISTER, { name }, token);
      expect(r.data).toBeNull();
      expect(codes(r)).toEqual(['NAME_TAKEN']);
      expect(r.errors?.[0]?.path).toEqual(['registerName']);
      expect(r.errors?.[0]?.message).toBe(
        `${name} is already registered: names are first come, first served`,
      );
    }
    expect(codes(await run(REGISTER, { name: 'ab.coin' }, bob.token))).toEqual(['INVALID_NAME']);
  });

  it('links with a signed challenge (UTXO and SOL), refuses reuse, a wrong key and an expired challenge', async () => {
    await register(alice.token);
    const doge = wallet('DOGE', 'p2pkh');
    const sol = wallet('SOL');
    const linked = await link(alice.token, 'DOGE', doge);
    expect(linked.errors).toBeUndefined();
    expect((await link(alice.token, 'SOL', sol)).errors).toBeUndefined();
    const rec = await ok<{ name: NameRec }>(NAME, { name });
    expect(rec.name.addresses.map((a) => [a.asset, a.address, a.coin?.id])).toEqual([
      ['DOGE', doge.address, 'dogecoin'],
      ['SOL', sol.address, 'solana'],
    ]);

    // A wrong key is refused without using the challenge up; the right one links once (single use).
    const ltc = wallet('LTC');
    const c2 = await ok<{ requestAddressChallenge: { challenge: string; nonce: string; expiresAt: string } }>(
      CHALLENGE,
      { name, asset: 'LTC', address: ltc.address },
      alice.token,
    );
    expect(c2.requestAddressChallenge.expiresAt).toBe(iso(h.clock.now + 5 * 60_000));
    const vars = { name, asset: 'LTC', address: ltc.address, nonce: c2.requestAddressChallenge.nonce };
    const wrongKey = await run(
      LINK,
      { ...vars, signature: wallet('LTC').sign(c2.requestAddressChallenge.challenge) },
      alice.token,
    );
    expect(codes(wrongKey)).toEqual(['WRONG_SIGNER']);
    const signature = ltc.sign(c2.requestAddressChallenge.challenge);
    expect((await run(LINK, { ...vars, signature }, alice.token)).errors).toBeUndefined();
    expect(codes(await run(LINK, { ...vars, signature }, alice.token))).toEqual(['CHALLENGE_USED']);

    // Older than 5 minutes → CHALLENGE_EXPIRED.
    const dgb = wallet('DGB', 'p2pkh');
    const c3 = await ok<{ requestAddressChallenge: { challenge: string; nonce: string } }>(
      CHALLENGE,
      { name, asset: 'DGB', address: dgb.address },
      alice.token,
    );
    const start = h.clock.now;
    h.clock.now += 5 * 60_000;
    try {
      const late = await run(
        LINK,
        {
          name,
          asset: 'DGB',
          address: dgb.address,
          signature: dgb.sign(c3.requestAddressChallenge.challenge),
          nonce: c3.requestAddressChallenge.nonce,
        },
        alice.token,
      );
      expect(codes(late)).toEqual(['CHALLENGE_EXPIRED']);
    } finally {
      h.clock.now = start;
    }
  });

  it('unlinks (ADDRESS_NOT_LINKED the second time)', async () => {
    await register(alice.token);
    expect((await link(alice.token, 'DOGE', wallet('DOGE', 'p2pkh'))).errors).toBeUndefined();
    const d = await ok<{ unlinkAddress: NameRec }>(UNLINK, { name, asset: 'DOGE' }, alice.token);
    expect(d.unlinkAddress.addresses).toEqual([]);
    const again = await run(UNLINK, { name, asset: 'DOGE' }, alice.token);
    expect(codes(again)).toEqual(['ADDRESS_NOT_LINKED']);
    expect(again.errors?.[0]?.message).toBe(`${name} has no DOGE address linked`);
  });

  it("hides a private name from others' changes (NAME_NOT_FOUND) and refuses a public one (NAME_NOT_YOURS)", async () => {
    await register(alice.token);
    expect(codes(await run(UNLINK, { name, asset: 'DOGE' }, bob.token))).toEqual(['NAME_NOT_YOURS']);
    const priv = await ok<{ setNamePrivacy: NameRec }>(PRIVACY, { name, private: true }, alice.token);
    expect(priv.setNamePrivacy.private).toBe(true);
    for (const r of [
      await run(UNLINK, { name, asset: 'DOGE' }, bob.token),
      await run(PRIVACY, { name, private: false }, bob.token),
      await run(CHALLENGE, { name, asset: 'LTC', address: wallet('LTC').address }, bob.token),
      await run(TRANSFER, { name, toAccountId: bob.id }, bob.token),
    ])
      expect(codes(r)).toEqual(['NAME_NOT_FOUND']);
    const pub = await ok<{ setNamePrivacy: NameRec }>(PRIVACY, { name, private: false }, alice.token);
    expect(pub.setNamePrivacy.private).toBe(false);
  });

  it('transfers by account id or by address, clearing links; refuses bad targets', async () => {
    await register(alice.token);
    expect((await link(alice.token, 'DOGE', wallet('DOGE', 'p2pkh'))).errors).toBeUndefined();
    expect(codes(await run(TRANSFER, { name }, alice.token))).toEqual(['INVALID_BODY']);
    expect(
      codes(await run(TRANSFER, { name, toAddress: bob.address, toAccountId: bob.id }, alice.token)),
    ).toEqual(['INVALID_BODY']);
    expect(codes(await run(TRANSFER, { name, toAccountId: alice.id }, alice.token))).toEqual([
      'TRANSFER_TO_SELF',
    ]);
    expect(codes(await run(TRANSFER, { name, toAccountId: 'nope' }, alice.token))).toEqual([
      'ACCOUNT_NOT_FOUND',
    ]);

    const t = await ok<{ transferName: NameRec }>(TRANSFER, { name, toAccountId: bob.id }, alice.token);
    expect(t.transferName).toMatchObject({ name, addresses: [] });
    expect(codes(await run(UNLINK, { name, asset: 'DOGE' }, alice.token))).toEqual(['NAME_NOT_YOURS']);

    // Bob gives it on to a wallet that never signed in: its account is created.
    const fresh = wallet('LTC');
    expect((await run(TRANSFER, { name, toAddress: fresh.address }, bob.token)).errors).toBeUndefined();
    const carol = await signIn(h, fresh);
    const mine = await ok<{ _entities: { names: { name: string }[] }[] }>(
      ENTITIES,
      { reps: [{ __typename: 'Account', id: carol.id }] },
      carol.token,
    );
    expect(mine._entities[0]?.names.map((x) => x.name)).toContain(name);
  });

  it('refuses arguments longer than REST accepts with INVALID_PARAMETER', async () => {
    const r = await run(REGISTER, { name: `${'a'.repeat(101)}.coin` }, alice.token);
    expect(codes(r)).toEqual(['INVALID_PARAMETER']);
    expect(r.errors?.[0]?.message).toBe('name must be at most 100 characters');
  });
});

describe('sessions', () => {
  const MUTATIONS: [string, Record<string, unknown>][] = [
    [REGISTER, { name: 'anyone.coin' }],
    [CHALLENGE, { name: 'anyone.coin', asset: 'LTC', address: 'x' }],
    [LINK, { name: 'anyone.coin', asset: 'LTC', address: 'x', signature: 'x', nonce: 'x' }],
    [UNLINK, { name: 'anyone.coin', asset: 'LTC' }],
    [PRIVACY, { name: 'anyone.coin', private: true }],
    [TRANSFER, { name: 'anyone.coin', toAccountId: 'x' }],
  ];

  it('every mutation needs a session: AUTH_REQUIRED before the arguments are checked', async () => {
    for (const [source, vars] of MUTATIONS) {
      const r = await run(source, vars);
      expect(codes(r)).toEqual(['AUTH_REQUIRED']);
      expect(r.data).toBeNull();
      expect(r.errors?.[0]?.extensions['http']).toEqual({ status: 401 });
    }
  });

  it('an unknown or malformed token is INVALID_SESSION, an expired one SESSION_EXPIRED', async () => {
    for (const [source, vars] of MUTATIONS) {
      expect(codes(await run(source, vars, UNKNOWN_TOKEN))).toEqual(['INVALID_SESSION']);
      expect(codes(await run(source, vars, 'cws_nope'))).toEqual(['INVALID_SESSION']);
    }
    const start = h.clock.now;
    h.clock.now += 24 * 3_600_000;
    try {
      expect(codes(await run(REGISTER, { name }, alice.token))).toEqual(['SESSION_EXPIRED']);
    } finally {
      h.clock.now = start;
    }
  });
});

describe('_entities: Account.names', () => {
  it("resolves the viewer's own Account by @key(id) with its names", async () => {
    await register(alice.token);
    const d = await ok<{ _entities: { id: string; names: { name: string }[] }[] }>(
      ENTITIES,
      { reps: [{ __typename: 'Account', id: alice.id }] },
      alice.token,
    );
    expect(d._entities[0]?.id).toBe(alice.id);
    expect(d._entities[0]?.names.map((x) => x.name)).toContain(name);
    expect(d._entities[0]?.names.map((x) => x.name)).toEqual(
      [...(d._entities[0]?.names.map((x) => x.name) ?? [])].sort(),
    );
  });

  it("another account's names are FORBIDDEN; without a session AUTH_REQUIRED", async () => {
    const reps = [
      { __typename: 'Account', id: alice.id },
      { __typename: 'Account', id: bob.id },
    ];
    const r = await run(ENTITIES, { reps }, bob.token);
    expect(r.data?.['_entities']).toEqual([null, { id: bob.id, names: expect.any(Array) as unknown }]);
    expect(codes(r)).toEqual(['FORBIDDEN']);
    expect(r.errors?.[0]?.path).toEqual(['_entities', 0, 'names']);
    const anon = await run(ENTITIES, { reps });
    expect(codes(anon)).toEqual(['AUTH_REQUIRED', 'AUTH_REQUIRED']);
    expect(codes(await run(ENTITIES, { reps }, UNKNOWN_TOKEN))).toEqual([
      'INVALID_SESSION',
      'INVALID_SESSION',
    ]);
  });
});

describe('batching (counted SQL statements)', () => {
  /** Accounts with names and links, made through the real sign-in; links written straight through the repo. */
  let users: User[];
  const ASSETS = ['LTC', 'DOGE', 'SOL'] as const;

  beforeAll(async () => {
    users = [];
    for (let i = 0; i < 50; i++) {
      const u = await signIn(h);
      users.push(u);
      for (const suffix of ['a', 'b']) {
        const label = `batch-${i}-${suffix}`;
        await register(u.token, `${label}.coin`);
        for (const asset of ASSETS)
          await repo.upsertAddress(h.db, label, asset, wallet(asset, 'p2pkh').address, h.clock.now);
      }
    }
  }, 120_000);

  it('namesByAccount answers 50 accounts with one names read and one addresses read', async () => {
    reset();
    const ctx = sg.contextFor({ headers: {} });
    const lists = await ctx.loaders.namesByAccount.loadMany(users.map((u) => u.id));
    expect(lists.map((l) => (l instanceof Error ? l : l.map((v) => v.name)))).toEqual(
      users.map((_, i) => [`batch-${i}-a.coin`, `batch-${i}-b.coin`]),
    );
    expect(keysOf('namesByAccount')).toEqual([users.map((u) => u.id)]);
    expect(statements).toHaveLength(2);
    expect([readsOf('names'), readsOf('name_addresses')]).toEqual([1, 1]);
  });

  it('_entities with 50 Account representations: one session read, one read per level, 49 FORBIDDEN', async () => {
    const me = users[0] as User;
    reset();
    const r = await run(
      ENTITIES,
      { reps: users.map((u) => ({ __typename: 'Account', id: u.id })) },
      me.token,
    );
    const entities = r.data?.['_entities'] as ({ names: { addresses: { coin: unknown }[] }[] } | null)[];
    expect(entities).toHaveLength(50);
    expect(entities[0]?.names.map((x) => x.addresses.map((a) => a.coin))).toEqual([
      [{ id: 'dogecoin' }, { id: 'litecoin' }, { id: 'solana' }],
      [{ id: 'dogecoin' }, { id: 'litecoin' }, { id: 'solana' }],
    ]);
    expect(entities.slice(1).every((e) => e === null)).toBe(true);
    expect(codes(r)).toEqual(Array<string>(49).fill('FORBIDDEN'));
    // The session once for 50 fields, no read at all for the refused accounts, one batch of tickers.
    expect([readsOf('sessions'), readsOf('names'), readsOf('name_addresses')]).toEqual([1, 1, 1]);
    expect(statements).toHaveLength(3);
    expect(keysOf('namesByAccount')).toEqual([[me.id]]);
    expect(keysOf('coinIdByTicker')).toEqual([['DOGE', 'LTC', 'SOL']]);
  });

  it("_entities with the viewer's Account 50 times costs the same three statements", async () => {
    const me = users[1] as User;
    reset();
    const d = await ok<{ _entities: { names: { name: string; addresses: { coin: { id: string } }[] }[] }[] }>(
      ENTITIES,
      { reps: Array.from({ length: 50 }, () => ({ __typename: 'Account', id: me.id })) },
      me.token,
    );
    expect(d._entities).toHaveLength(50);
    for (const e of d._entities)
      expect(e.names.map((x) => x.name)).toEqual(['batch-1-a.coin', 'batch-1-b.coin']);
    expect([readsOf('sessions'), readsOf('names'), readsOf('name_addresses')]).toEqual([1, 1, 1]);
    expect(statements).toHaveLength(3);
    expect(keysOf('namesByAccount')).toEqual([[me.id]]);
    expect(keysOf('coinIdByTicker')).toEqual([['DOGE', 'LTC', 'SOL']]);
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

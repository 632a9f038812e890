/**
 * The identity subgraph's mutations (register, link, unlink, privacy, transfer), their sessions, `Account.names` by
 * `_entities` and its batching, executed in process over the names harness (see `identity.test.ts` and
 * `support/identity.ts`): SQL statements and loader batches are counted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as repo from '../../src/names/name-repo.ts';
import { signIn, wallet } from '../names/harness.ts';
import {
  alice,
  bob,
  CHALLENGE,
  codes,
  h,
  iso,
  keysOf,
  LINK,
  link,
  name,
  NAME,
  ok,
  PRIVACY,
  readsOf,
  RECORD,
  REGISTER,
  register,
  reset,
  run,
  sg,
  statements,
  UNKNOWN_TOKEN,
  useIdentityGraph,
} from './support/identity.ts';
import type { NameRec, User } from './support/identity.ts';

useIdentityGraph();

const UNLINK = `mutation ($name: String!, $asset: String!) { unlinkAddress(name: $name, asset: $asset) { ${RECORD} } }`;
const TRANSFER = `mutation ($name: String!, $toAddress: String, $toAccountId: ID) {
  transferName(name: $name, toAddress: $toAddress, toAccountId: $toAccountId) { ${RECORD} }
}`;
const ENTITIES = `query ($reps: [_Any!]!) {
  _entities(representations: $reps) { ... on Account { id names { name addresses { asset coin { id } } } } }
}`;

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
      // As the accounts subgraph and REST: a 401 names the scheme to authenticate with (RFC 6750).
      expect(r.errors?.[0]?.extensions['http']).toEqual({
        status: 401,
        headers: { 'www-authenticate': 'Bearer' },
      });
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

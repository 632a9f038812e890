import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeSegwitV0 } from '../../src/crypto/address.ts';
import {
  ADMIN_TOKEN,
  audit,
  call,
  errorMessage,
  harness,
  link,
  register,
  signIn,
  wallet,
} from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
let alice: { token: string; id: string; address: string };
let bob: { token: string; id: string; address: string };
let n = 0;
/** A fresh name per test. */
let name: string;
beforeAll(async () => {
  h = await harness();
  alice = await signIn(h);
  bob = await signIn(h);
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  name = `name-${++n}.coin`;
  await register(h, alice.token, name);
});

const challenge = (token: string, asset: string, address: string, nm = name) =>
  call(h, 'POST', `/api/names/${nm}/addresses/${asset}/challenge`, { token, body: { address } });
const put = (token: string, asset: string, body: Record<string, unknown>, nm = name) =>
  call(h, 'PUT', `/api/names/${nm}/addresses/${asset}`, { token, body });
const label = () => name.slice(0, -'.coin'.length);

describe('register and list', () => {
  it('first come: 201, then 409 NAME_TAKEN for anyone (case-folded)', async () => {
    const r = await call(h, 'POST', '/api/names', { token: bob.token, body: { name: 'First.Coin' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'first.coin', private: false, addresses: {} });
    expect(r.body.holder).toEqual({ type: 'account', accountId: bob.id });
    for (const token of [alice.token, bob.token]) {
      const again = await call(h, 'POST', '/api/names', { token, body: { name: ' FIRST.coin' } });
      expect([again.status, again.code]).toEqual([409, 'NAME_TAKEN']);
    }
    expect((await audit(h.db, 'first')).map((a) => [a.action, a.actor, a.to_state])).toEqual([
      ['name.register', `account:${bob.id}`, `account:${bob.id}`],
    ]);
  });

  it('refuses invalid names with the rule, and writes nothing', async () => {
    for (const bad of ['ab.coin', 'alice.eth', 'alice', '-ab.coin', 'ünï.coin', 'xn--bcher-kva.coin']) {
      const r = await call(h, 'POST', '/api/names', { token: bob.token, body: { name: bad } });
      expect([bad, r.status, r.code]).toEqual([bad, 400, 'INVALID_NAME']);
    }
    expect((await h.db.query("SELECT 1 FROM names WHERE label LIKE 'xn%' OR label = 'ab'")).rows).toEqual([]);
  });

  it("GET /names lists only the caller's names, with their addresses", async () => {
    const w = wallet('DOGE', 'p2pkh');
    expect((await link(h, alice.token, name, 'DOGE', w)).status).toBe(200);
    const mine = await call(h, 'GET', '/api/names', { token: alice.token });
    const entry = (
      mine.raw.json() as { name: string; addresses: Record<string, { address: string }> }[]
    ).find((e) => e.name === name);
    expect(entry?.addresses.DOGE?.address).toBe(w.address);
    const theirs = await call(h, 'GET', '/api/names', { token: bob.token });
    expect((theirs.raw.json() as { name: string }[]).map((e) => e.name)).not.toContain(name);
  });

  it('needs a session: 401 before the body is read', async () => {
    const r = await call(h, 'POST', '/api/names', { body: { name: 'x' } });
    expect([r.status, r.code]).toEqual([401, 'AUTH_REQUIRED']);
    const bad = await call(h, 'GET', '/api/names', { token: 'cws_nope' });
    expect([bad.status, bad.code]).toEqual([401, 'INVALID_SESSION']);
  });
});

describe('linking with proof of control', () => {
  it.each([
    ['LTC', 'p2wpkh'],
    ['LTC', 'p2sh-p2wpkh'],
    ['DOGE', 'p2pkh'],
    ['PEP', 'p2pkh'],
  ] as const)('%s %s: challenge, signature, link, resolve', async (asset, type) => {
    const w = wallet(asset, type);
    const c = await challenge(alice.token, asset, w.address);
    expect(c.status).toBe(200);
    expect(c.body.expiresAt).toBe(h.clock.now + 5 * 60_000);
    expect(c.body.challenge).toContain(`Link this ${asset} address to the name ${name}:\n${w.address}`);
    const r = await put(alice.token, asset, {
      address: w.address,
      signature: w.sign(c.body.challenge as string),
      nonce: c.body.nonce,
    });
    expect(r.status).toBe(200);
    expect((r.body.addresses as Record<string, { address: string }>)[asset]?.address).toBe(w.address);
    const res = await call(h, 'GET', `/api/resolve/${name}?asset=${asset}`);
    expect(res.body.address).toBe(w.address);
    const rows = await audit(h.db, label());
    expect(rows.at(-1)).toMatchObject({
      action: 'name.link',
      actor: `account:${alice.id}`,
      to_state: `${asset}:${w.address}`,
    });
  });

  it('SOL: an ed25519 signature (base58) over the challenge text', async () => {
    const w = wallet('SOL');
    expect((await link(h, alice.token, name, 'SOL', w)).status).toBe(200);
    expect((await call(h, 'GET', `/api/resolve/${name}?asset=SOL`)).body.address).toBe(w.address);
    // Another key's signature does not verify.
    const other = wallet('SOL');
    const c = await challenge(alice.token, 'SOL', w.address);
    const r = await put(alice.token, 'SOL', {
      address: w.address,
      signature: other.sign(c.body.challenge as string),
      nonce: c.body.nonce,
    });
    expect([r.status, r.code]).toEqual([403, 'BAD_SIGNATURE']);
    const junk = await put(alice.token, 'SOL', { address: w.address, signature: 'abc', nonce: c.body.nonce });
    expect([junk.status, junk.code]).toEqual([400, 'MALFORMED_SIGNATURE']);
  });

  it('no signature or nonce → 400 PROOF_REQUIRED; unknown nonce → 400 CHALLENGE_NOT_FOUND', async () => {
    const w = wallet('LTC');
    const none = await put(alice.token, 'LTC', { address: w.address });
    expect([none.status, none.code]).toEqual([400, 'PROOF_REQUIRED']);
    const noNonce = await put(alice.token, 'LTC', { address: w.address, signature: w.sign('x') });
    expect(noNonce.code).toBe('PROOF_REQUIRED');
    const unknown = await put(alice.token, 'LTC', {
      address: w.address,
      signature: w.sign('x'),
      nonce: 'f'.repeat(32),
    });
    expect([unknown.status, unknown.code]).toEqual([400, 'CHALLENGE_NOT_FOUND']);
    expect(await audit(h.db, label())).toHaveLength(1); // the registration only
  });

  it('a challenge is bound to its coin and address, and single use', async () => {
    const w = wallet('LTC');
    const c = await challenge(alice.token, 'LTC', w.address);
    const sig = w.sign(c.body.challenge as string);
    const otherAddr = await put(alice.token, 'LTC', {
      address: wallet('LTC').address,
      signature: sig,
      nonce: c.body.nonce,
    });
    expect(otherAddr.code).toBe('CHALLENGE_NOT_FOUND');
    const otherCoin = await put(alice.token, 'DOGE', {
      address: wallet('DOGE', 'p2pkh').address,
      signature: sig,
      nonce: c.body.nonce,
    });
    expect(otherCoin.code).toBe('CHALLENGE_NOT_FOUND');
    expect(
      (await put(alice.token, 'LTC', { address: w.address, signature: sig, nonce: c.body.nonce })).status,
    ).toBe(200);
    const reused = await put(alice.token, 'LTC', { address: w.address, signature: sig, nonce: c.body.nonce });
    expect([reused.status, reused.code]).toEqual([400, 'CHALLENGE_USED']);
    expect((await audit(h.db, label())).filter((a) => a.action === 'name.link')).toHaveLength(1);
  });

  it('an expired challenge → 400 CHALLENGE_EXPIRED', async () => {
    const w = wallet('LTC');
    const c = await challenge(alice.token, 'LTC', w.address);
    h.clock.now += 5 * 60_000;
    const r = await put(alice.token, 'LTC', {
      address: w.address,
      signature: w.sign(c.body.challenge as string),
      nonce: c.body.nonce,
    });
    expect([r.status, r.code]).toEqual([400, 'CHALLENGE_EXPIRED']);
  });

  it('signed by another key → 403 WRONG_SIGNER; garbage → 400 MALFORMED_SIGNATURE; nothing linked', async () => {
    const w = wallet('LTC');
    const c = await challenge(alice.token, 'LTC', w.address);
    const wrong = await put(alice.token, 'LTC', {
      address: w.address,
      signature: wallet('LTC').sign(c.body.challenge as string),
      nonce: c.body.nonce,
    });
    expect([wrong.status, wrong.code]).toEqual([403, 'WRONG_SIGNER']);
    const tampered = await put(alice.token, 'LTC', {
      address: w.address,
      signature: w.sign(`${c.body.challenge as string}!`),
      nonce: c.body.nonce,
    });
    expect(tampered.status).toBe(403);
    const junk = await put(alice.token, 'LTC', {
      address: w.address,
      signature: 'not base64!',
      nonce: c.body.nonce,
    });
    expect([junk.status, junk.code]).toEqual([400, 'MALFORMED_SIGNATURE']);
    // The challenge survives failed attempts: the right signature still works once.
    expect(
      (
        await put(alice.token, 'LTC', {
          address: w.address,
          signature: w.sign(c.body.challenge as string),
          nonce: c.body.nonce,
        })
      ).status,
    ).toBe(200);
  });

  it('addresses are validated per coin: invalid, wrong network, unprovable kinds → 400 with their code', async () => {
    const invalid = await challenge(alice.token, 'LTC', 'ltc1qnotanaddress');
    expect([invalid.status, invalid.code]).toEqual([400, 'INVALID_ADDRESS']);
    const testnet = await challenge(alice.token, 'LTC', wallet('LTC', 'p2wpkh', 'testnet').address);
    expect([testnet.status, testnet.code]).toEqual([400, 'WRONG_NETWORK']);
    const dogeForLtc = await challenge(alice.token, 'LTC', wallet('DOGE', 'p2pkh').address);
    expect(dogeForLtc.status).toBe(400);
    const p2wsh = encodeSegwitV0('ltc', randomBytes(32));
    const unprovable = await challenge(alice.token, 'LTC', p2wsh);
    expect([unprovable.status, unprovable.code]).toEqual([400, 'UNPROVABLE_ADDRESS']);
    const badPut = await put(alice.token, 'LTC', { address: 'Lxyz', signature: 'x', nonce: 'y' });
    expect([badPut.status, badPut.code]).toEqual([400, 'INVALID_ADDRESS']);
    const asset = await challenge(alice.token, 'ltc', wallet('LTC').address);
    expect([asset.status, asset.code]).toEqual([400, 'INVALID_PARAMETER']);
    expect(errorMessage(asset)).toContain('uppercase');
  });

  it('unlink: 200 and resolution says ADDRESS_NOT_LINKED; again → 404 ADDRESS_NOT_LINKED', async () => {
    expect((await link(h, alice.token, name, 'LTC', wallet('LTC'))).status).toBe(200);
    const del = await call(h, 'DELETE', `/api/names/${name}/addresses/LTC`, { token: alice.token });
    expect(del.status).toBe(200);
    expect((await call(h, 'GET', `/api/resolve/${name}?asset=LTC`)).code).toBe('ADDRESS_NOT_LINKED');
    const again = await call(h, 'DELETE', `/api/names/${name}/addresses/LTC`, { token: alice.token });
    expect([again.status, again.code]).toEqual([404, 'ADDRESS_NOT_LINKED']);
    expect((await audit(h.db, label())).map((a) => a.action)).toEqual([
      'name.register',
      'name.link',
      'name.unlink',
    ]);
  });
});

describe('ownership, privacy and transfer', () => {
  it("someone else's public name → 403 NAME_NOT_YOURS; private → 404 exactly like a missing name", async () => {
    const w = wallet('LTC');
    const tries = () => [
      challenge(bob.token, 'LTC', w.address),
      put(bob.token, 'LTC', { address: w.address, signature: 'x', nonce: 'y' }),
      call(h, 'DELETE', `/api/names/${name}/addresses/LTC`, { token: bob.token }),
      call(h, 'PATCH', `/api/names/${name}`, { token: bob.token, body: { private: true } }),
      call(h, 'POST', `/api/names/${name}/transfer`, { token: bob.token, body: { toAddress: bob.address } }),
    ];
    for (const r of await Promise.all(tries())) expect([r.status, r.code]).toEqual([403, 'NAME_NOT_YOURS']);
    await call(h, 'PATCH', `/api/names/${name}`, { token: alice.token, body: { private: true } });
    const missing = await call(h, 'PATCH', '/api/names/never-was.coin', {
      token: bob.token,
      body: { private: true },
    });
    for (const r of await Promise.all(tries())) {
      expect([r.status, r.code]).toEqual([404, 'NAME_NOT_FOUND']);
      expect(r.raw.body.replace(label(), 'never-was')).toBe(missing.raw.body);
    }
    expect((await audit(h.db, label())).map((a) => a.action)).toEqual(['name.register', 'name.privacy']);
  });

  it('privacy toggle: audited once per change, resolution follows', async () => {
    expect((await link(h, alice.token, name, 'LTC', wallet('LTC'))).status).toBe(200);
    const on = await call(h, 'PATCH', `/api/names/${name}`, { token: alice.token, body: { private: true } });
    expect([on.status, on.body.private]).toEqual([200, true]);
    expect((await call(h, 'GET', `/api/resolve/${name}?asset=LTC`)).code).toBe('NAME_NOT_FOUND');
    await call(h, 'PATCH', `/api/names/${name}`, { token: alice.token, body: { private: true } }); // no change
    const off = await call(h, 'PATCH', `/api/names/${name}`, {
      token: alice.token,
      body: { private: false },
    });
    expect(off.body.private).toBe(false);
    expect((await call(h, 'GET', `/api/resolve/${name}?asset=LTC`)).status).toBe(200);
    const rows = (await audit(h.db, label())).filter((a) => a.action === 'name.privacy');
    expect(rows.map((a) => [a.from_state, a.to_state])).toEqual([
      ['public', 'private'],
      ['private', 'public'],
    ]);
    const bad = await call(h, 'PATCH', `/api/names/${name}`, {
      token: alice.token,
      body: { private: 'yes' },
    });
    expect([bad.status, bad.code]).toEqual([400, 'INVALID_BODY']);
  });

  it('transfer to a new wallet address: account created, links cleared, old holder 403, new holder OK', async () => {
    expect((await link(h, alice.token, name, 'LTC', wallet('LTC'))).status).toBe(200);
    const carolWallet = wallet('LTC');
    const t = await call(h, 'POST', `/api/names/${name}/transfer`, {
      token: alice.token,
      body: { toAddress: carolWallet.address },
    });
    expect(t.status).toBe(200);
    expect(t.body.addresses).toEqual({});
    const carol = await signIn(h, carolWallet);
    expect(t.body.holder).toEqual({ type: 'account', accountId: carol.id });
    expect((await call(h, 'GET', `/api/resolve/${name}?asset=LTC`)).code).toBe('ADDRESS_NOT_LINKED');

    const old = await call(h, 'PATCH', `/api/names/${name}`, { token: alice.token, body: { private: true } });
    expect([old.status, old.code]).toEqual([403, 'NAME_NOT_YOURS']);
    const w = wallet('LTC');
    expect((await link(h, carol.token, name, 'LTC', w)).status).toBe(200);
    expect((await call(h, 'GET', `/api/resolve/${name}?asset=LTC`)).body.address).toBe(w.address);

    const rows = await audit(h.db, label());
    expect(rows.find((a) => a.action === 'name.transfer')).toMatchObject({
      actor: `account:${alice.id}`,
      from_state: `account:${alice.id}`,
      to_state: `account:${carol.id}`,
      reason: '1 linked address(es) cleared',
    });
    const created = await h.db.query<{ reason: string }>(
      "SELECT reason FROM audit_log WHERE entity = 'account' AND entity_id = $1",
      [carol.id],
    );
    expect(created.rows).toEqual([{ reason: 'received a name transfer' }]);
  });

  it('transfer by account id; to yourself, to nobody, to both or neither → 4xx and nothing changes', async () => {
    const self = await call(h, 'POST', `/api/names/${name}/transfer`, {
      token: alice.token,
      body: { toAccountId: alice.id },
    });
    expect([self.status, self.code]).toEqual([400, 'TRANSFER_TO_SELF']);
    const selfAddr = await call(h, 'POST', `/api/names/${name}/transfer`, {
      token: alice.token,
      body: { toAddress: alice.address },
    });
    expect(selfAddr.code).toBe('TRANSFER_TO_SELF');
    const nobody = await call(h, 'POST', `/api/names/${name}/transfer`, {
      token: alice.token,
      body: { toAccountId: '00000000-0000-4000-8000-000000000000' },
    });
    expect([nobody.status, nobody.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    const both = await call(h, 'POST', `/api/names/${name}/transfer`, {
      token: alice.token,
      body: { toAccountId: bob.id, toAddress: bob.address },
    });
    expect([both.status, both.code]).toEqual([400, 'INVALID_BODY']);
    const neither = await call(h, 'POST', `/api/names/${name}/transfer`, { token: alice.token, body: {} });
    expect(neither.code).toBe('INVALID_BODY');
    const badAddr = await call(h, 'POST', `/api/names/${name}/transfer`, {
      token: alice.token,
      body: { toAddress: 'nope' },
    });
    expect([badAddr.status, badAddr.code]).toEqual([400, 'INVALID_ADDRESS']);
    expect(await audit(h.db, label())).toHaveLength(1);

    const ok = await call(h, 'POST', `/api/names/${name}/transfer`, {
      token: alice.token,
      body: { toAccountId: bob.id },
    });
    expect(ok.status).toBe(200);
    expect(
      (await call(h, 'PATCH', `/api/names/${name}`, { token: bob.token, body: { private: true } })).status,
    ).toBe(200);
  });
});

describe('bodies', () => {
  it('unknown fields → 400 UNKNOWN_FIELD; over 16 KiB → 413; not JSON → 400', async () => {
    const unknown = await call(h, 'POST', '/api/names', {
      token: alice.token,
      body: { name: 'zzz.coin', owner: 'x' },
    });
    expect([unknown.status, unknown.code]).toEqual([400, 'UNKNOWN_FIELD']);
    const patch = await call(h, 'PATCH', `/api/names/${name}`, {
      token: alice.token,
      body: { private: true, label: 'x' },
    });
    expect(patch.code).toBe('UNKNOWN_FIELD');
    const del = await call(h, 'DELETE', `/api/names/${name}/addresses/LTC`, {
      token: alice.token,
      body: { x: 1 },
    });
    expect(del.code).toBe('UNKNOWN_FIELD');
    const big = await call(h, 'POST', '/api/names', {
      token: alice.token,
      body: { name: 'zzz.coin', pad: 'x'.repeat(17_000) },
    });
    expect([big.status, big.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(errorMessage(big)).toContain('16 KiB');
    const json = await call(h, 'POST', '/api/names', { token: alice.token, payload: '{"name":' });
    expect([json.status, json.code]).toEqual([400, 'INVALID_JSON']);
    const arr = await call(h, 'POST', '/api/names', { token: alice.token, payload: '[]' });
    expect([arr.status, arr.code]).toEqual([400, 'INVALID_BODY']);
    expect(
      (await call(h, 'POST', '/api/names', { token: ADMIN_TOKEN, body: { name: 'op.coin' } })).status,
    ).toBe(401);
  });
});

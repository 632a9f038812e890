import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LITECOIN_CHAIN_ID, parseChallenge } from '../../src/accounts/challenge.ts';
import { call, challengeFor, DOMAIN, harness, signIn, wallet } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.close();
});

const session = (address: string, signature: string, extra: Record<string, unknown> = {}) =>
  call(h, 'POST', '/api/auth/session', { body: { address, signature, ...extra } });

describe('challenge', () => {
  it('is EIP-4361-like text naming domain, address, nonce, issue and expiry (5 minutes)', async () => {
    const w = wallet('p2wpkh');
    const r = await call(h, 'POST', '/api/auth/challenge', { body: { address: w.address } });
    expect(r.status).toBe(200);
    const text = r.body.challenge as string;
    expect(text.split('\n')[0]).toBe(`${DOMAIN} wants you to sign in with your Litecoin account:`);
    expect(text).toContain(`\nChain ID: ${LITECOIN_CHAIN_ID}\n`);
    const f = parseChallenge(text);
    expect(f).toMatchObject({
      domain: DOMAIN,
      address: w.address,
      uri: `http://${DOMAIN}`,
      issuedAt: h.clock.now,
      expiresAt: h.clock.now + 300_000,
    });
    expect(f?.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(r.body).toEqual({ challenge: text, nonce: f?.nonce, expiresAt: h.clock.now + 300_000 });
    // Every challenge is new.
    expect(await challengeFor(h, w.address)).not.toBe(text);
  });

  it('refuses what is not an LTC mainnet address → 400 INVALID_ADDRESS', async () => {
    for (const address of [
      'not-an-address',
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', // Bitcoin P2PKH
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kj7gz7z', // Bitcoin bech32
      badChecksum(wallet('p2wpkh').address), // bad checksum
    ]) {
      const r = await call(h, 'POST', '/api/auth/challenge', { body: { address } });
      expect([r.status, r.code]).toEqual([400, 'INVALID_ADDRESS']);
    }
  });
});

/** The address with its last character changed (always a different one: a bech32 checksum then fails). */
function badChecksum(address: string): string {
  return `${address.slice(0, -1)}${address.endsWith('q') ? 'p' : 'q'}`;
}

describe('session', () => {
  it.each(['p2pkh', 'p2sh-p2wpkh', 'p2wpkh'] as const)(
    'challenge → signed session → me, with a %s address',
    async (type) => {
      const w = wallet(type);
      const challenge = await challengeFor(h, w.address);
      const r = await session(w.address, w.sign(challenge));
      expect(r.status).toBe(201);
      expect(r.body.token).toMatch(/^cws_[A-Za-z0-9_-]{43}$/);
      expect(r.body.expiresAt).toBe(h.clock.now + 24 * 3_600_000);
      const me = await call(h, 'GET', '/api/account/me', { token: r.body.token as string });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ address: w.address, role: 'user' });
      expect(me.body.id).toBe((r.body.account as { id: string }).id);
      // The token is stored only as a hash.
      const stored = await h.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
      expect(stored.rows.some((s) => s.token_hash === r.body.token)).toBe(false);
      expect(JSON.stringify(stored.rows)).not.toContain(r.body.token as string);
    },
  );

  it('signs the same account in again (one account per address; bech32 in any case)', async () => {
    const w = wallet('p2wpkh');
    const first = await signIn(h, w);
    const upper = w.address.toUpperCase();
    const challenge = await challengeFor(h, upper);
    expect(parseChallenge(challenge)?.address).toBe(w.address);
    const again = await session(upper, w.sign(challenge));
    expect(again.status).toBe(201);
    const a = await call(h, 'GET', '/api/account/me', { token: first });
    const b = await call(h, 'GET', '/api/account/me', { token: again.body.token as string });
    expect(b.body.id).toBe(a.body.id);
  });

  it('a signature by another key over the right challenge → 401 ADDRESS_MISMATCH', async () => {
    const w = wallet('p2pkh');
    const thief = wallet('p2pkh');
    const challenge = await challengeFor(h, w.address);
    const r = await session(w.address, thief.sign(challenge));
    expect([r.status, r.code]).toEqual([401, 'ADDRESS_MISMATCH']);
    // The challenge stays open for its owner.
    expect((await session(w.address, w.sign(challenge))).status).toBe(201);
  });

  it('a signature over other text → 401 ADDRESS_MISMATCH (the key it recovers is not the address’s)', async () => {
    const w = wallet('p2wpkh');
    const challenge = await challengeFor(h, w.address);
    const r = await session(w.address, w.sign(challenge.replace('Version: 1', 'Version: 2')));
    expect([r.status, r.code]).toEqual([401, 'ADDRESS_MISMATCH']);
  });

  it('an address with no challenge (signed for another) → 401 CHALLENGE_NOT_FOUND', async () => {
    const w = wallet('p2pkh');
    const other = wallet('p2pkh');
    const challenge = await challengeFor(h, w.address);
    const r = await session(other.address, other.sign(challenge));
    expect([r.status, r.code]).toEqual([401, 'CHALLENGE_NOT_FOUND']);
  });

  it('a reused challenge → 401 CHALLENGE_USED', async () => {
    const w = wallet('p2wpkh');
    const challenge = await challengeFor(h, w.address);
    const sig = w.sign(challenge);
    expect((await session(w.address, sig)).status).toBe(201);
    const again = await session(w.address, sig);
    expect([again.status, again.code]).toEqual([401, 'CHALLENGE_USED']);
  });

  it('two concurrent sign-ins with one challenge: exactly one session', async () => {
    const w = wallet('p2wpkh');
    const challenge = await challengeFor(h, w.address);
    const sig = w.sign(challenge);
    const results = await Promise.all([session(w.address, sig), session(w.address, sig)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 401]);
    expect(results.find((r) => r.status === 401)?.code).toBe('CHALLENGE_USED');
  });

  it('an expired challenge → 401 CHALLENGE_EXPIRED (valid until 5 minutes after issue)', async () => {
    const w = wallet('p2pkh');
    const ask = () => call(h, 'POST', '/api/auth/challenge', { body: { address: w.address } });
    const late = (await ask()).body;
    const onTime = (await ask()).body;
    h.clock.now += 300_000 - 1;
    const signed = (c: Record<string, unknown>) => ({ nonce: c.nonce });
    expect((await session(w.address, w.sign(onTime.challenge as string), signed(onTime))).status).toBe(201);
    h.clock.now += 1;
    const r = await session(w.address, w.sign(late.challenge as string), signed(late));
    expect([r.status, r.code]).toEqual([401, 'CHALLENGE_EXPIRED']);
    // Without a nonce, the newest unused challenge is the one checked: the expired one.
    const again = await session(w.address, w.sign(late.challenge as string));
    expect([again.status, again.code]).toEqual([401, 'CHALLENGE_EXPIRED']);
  });

  it('a signature that recovers no key → 401 BAD_SIGNATURE', async () => {
    const w = wallet('p2pkh');
    await challengeFor(h, w.address);
    // Header 31 (P2PKH, compressed), r = 0: no public key can be recovered.
    const sig = Buffer.concat([Buffer.from([31]), Buffer.alloc(32), Buffer.alloc(31), Buffer.from([1])]);
    const r = await session(w.address, sig.toString('base64'));
    expect([r.status, r.code]).toEqual([401, 'BAD_SIGNATURE']);
  });

  it('a signature that is not one → 400 MALFORMED_SIGNATURE, with or without a challenge', async () => {
    const w = wallet('p2pkh');
    for (const signature of ['not base64 !!', Buffer.alloc(64, 1).toString('base64'), 'AAAA']) {
      const r = await session(w.address, signature);
      expect([r.status, r.code]).toEqual([400, 'MALFORMED_SIGNATURE']);
    }
    await challengeFor(h, w.address);
    const r = await session(w.address, Buffer.alloc(65, 0).toString('base64')); // header 0
    expect([r.status, r.code]).toEqual([400, 'MALFORMED_SIGNATURE']);
  });

  it('one challenge per attempt: the one the nonce names, else the newest; never a scan', async () => {
    const w = wallet('p2wpkh');
    const mine = await call(h, 'POST', '/api/auth/challenge', { body: { address: w.address } });
    h.clock.now += 1;
    await challengeFor(h, w.address); // a newer one (another tab, or someone else asking for this address)
    const sig = w.sign(mine.body.challenge as string);
    // Without the nonce only the newest is checked: not the one signed.
    expect((await session(w.address, sig)).code).toBe('ADDRESS_MISMATCH');
    const r = await session(w.address, sig, { nonce: mine.body.nonce });
    expect(r.status).toBe(201);
    // A nonce of another address's challenge is not found.
    const other = wallet('p2wpkh');
    const theirs = await call(h, 'POST', '/api/auth/challenge', { body: { address: other.address } });
    const x = await session(w.address, w.sign(theirs.body.challenge as string), { nonce: theirs.body.nonce });
    expect(x.code).toBe('CHALLENGE_NOT_FOUND');
  });
});

describe('open challenges per address', () => {
  it('at most 5 unused challenges per address: a newer one drops the oldest (then CHALLENGE_NOT_FOUND)', async () => {
    const w = wallet('p2wpkh');
    const ask = async () =>
      (await call(h, 'POST', '/api/auth/challenge', { body: { address: w.address } })).body;
    const first = await ask();
    const rows = async () =>
      (await h.db.query('SELECT nonce FROM auth_challenges WHERE address = $1', [w.address])).rows.length;
    for (let i = 0; i < 4; i++) {
      h.clock.now += 1;
      await ask();
    }
    expect(await rows()).toBe(5);
    // A sixth: the first is gone, whatever its signature.
    h.clock.now += 1;
    const sixth = await ask();
    expect(await rows()).toBe(5);
    const sig = w.sign(first.challenge as string);
    const gone = await session(w.address, sig, { nonce: first.nonce });
    expect([gone.status, gone.code]).toEqual([401, 'CHALLENGE_NOT_FOUND']);
    // A flood of 40 more leaves 5 rows; the newest still signs in, without its nonce too.
    for (let i = 0; i < 40; i++) {
      h.clock.now += 1;
      await ask();
    }
    expect(await rows()).toBe(5);
    h.clock.now += 1;
    const last = await ask();
    expect((await session(w.address, w.sign(last.challenge as string))).status).toBe(201);
    // A used challenge stays (it belongs to a sign-in) and does not count toward the 5.
    h.clock.now += 1;
    for (let i = 0; i < 5; i++) await ask();
    expect(await rows()).toBe(6);
    expect(sixth.nonce).not.toBe(last.nonce);
  });
});

describe('sessions', () => {
  it('no token → 401 AUTH_REQUIRED; an unknown token → 401 INVALID_SESSION', async () => {
    const none = await call(h, 'GET', '/api/account/me');
    expect([none.status, none.code]).toEqual([401, 'AUTH_REQUIRED']);
    expect(none.raw.headers['www-authenticate']).toBe('Bearer');
    for (const token of ['cws_' + 'A'.repeat(43), 'garbage']) {
      const r = await call(h, 'GET', '/api/account/me', { token });
      expect([r.status, r.code]).toEqual([401, 'INVALID_SESSION']);
    }
  });

  it('logout revokes the token at once; other sessions of the account stay', async () => {
    const w = wallet('p2wpkh');
    const one = await signIn(h, w);
    const two = await signIn(h, w);
    const out = await call(h, 'POST', '/api/auth/logout', { token: one });
    expect(out.status).toBe(204);
    const after = await call(h, 'GET', '/api/account/me', { token: one });
    expect([after.status, after.code]).toEqual([401, 'INVALID_SESSION']);
    expect((await call(h, 'POST', '/api/auth/logout', { token: one })).status).toBe(401);
    expect((await call(h, 'GET', '/api/account/me', { token: two })).status).toBe(200);
    expect((await call(h, 'POST', '/api/auth/logout')).code).toBe('AUTH_REQUIRED');
  });

  it('expires after 24 hours → 401 SESSION_EXPIRED', async () => {
    const token = await signIn(h, wallet('p2pkh'));
    h.clock.now += 24 * 3_600_000 - 1;
    expect((await call(h, 'GET', '/api/account/me', { token })).status).toBe(200);
    h.clock.now += 1;
    const r = await call(h, 'GET', '/api/account/me', { token });
    expect([r.status, r.code]).toEqual([401, 'SESSION_EXPIRED']);
  });
});

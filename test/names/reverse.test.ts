/**
 * Names both ways over REST: primary names (proved by the linking rules, forward-verified, private never shown) with
 * `GET /api/reverse/{address}`, and bulk resolution `POST /api/resolve` with per-item outcomes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  audit,
  call,
  createPartner,
  errorMessage,
  harness,
  link,
  partnerCall,
  register,
  signIn,
  wallet,
} from './harness.ts';
import type { Harness, Res, Wallet } from './harness.ts';
import { changed } from '../../src/store/read-cache.ts';

let h: Harness;
let token: string;
let other: string;
const ltc = wallet('LTC');
const doge = wallet('DOGE', 'p2pkh');

/** Makes `name` the primary name of `w`'s address with a real proof; returns the PUT's response. */
async function setPrimary(
  tok: string,
  name: string,
  asset: string,
  w: Wallet,
  signer: Wallet = w,
): Promise<Res> {
  const c = await call(h, 'POST', `/api/names/${name}/primary/${asset}/challenge`, {
    token: tok,
    body: { address: w.address },
  });
  if (c.status !== 200) return c;
  return call(h, 'PUT', `/api/names/${name}/primary/${asset}`, {
    token: tok,
    body: { address: w.address, signature: signer.sign(c.body.challenge as string), nonce: c.body.nonce },
  });
}
const reverse = (address: string, asset = 'LTC', headers: Record<string, string> = {}) =>
  call(h, 'GET', `/api/reverse/${encodeURIComponent(address)}?asset=${asset}`, { headers });

beforeAll(async () => {
  h = await harness();
  token = (await signIn(h)).token;
  other = (await signIn(h)).token;
  await register(h, token, 'alice.coin');
  expect((await link(h, token, 'alice.coin', 'LTC', ltc)).status).toBe(200);
  expect((await link(h, token, 'alice.coin', 'DOGE', doge)).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await h.close();
});

describe('primary names: setting one', () => {
  it('needs the name to resolve to the address first (409 PRIMARY_NEEDS_LINK)', async () => {
    const stranger = wallet('LTC');
    const r = await setPrimary(token, 'alice.coin', 'LTC', stranger);
    expect([r.status, r.code]).toEqual([409, 'PRIMARY_NEEDS_LINK']);
    expect(errorMessage(r)).toContain('link the address to the name first');
  });

  it('needs a signature by the address over a primary challenge: a link challenge does not serve', async () => {
    const linkChallenge = await call(h, 'POST', '/api/names/alice.coin/addresses/LTC/challenge', {
      token,
      body: { address: ltc.address },
    });
    const r = await call(h, 'PUT', '/api/names/alice.coin/primary/LTC', {
      token,
      body: {
        address: ltc.address,
        signature: ltc.sign(linkChallenge.body.challenge as string),
        nonce: linkChallenge.body.nonce,
      },
    });
    expect([r.status, r.code]).toEqual([400, 'CHALLENGE_NOT_FOUND']);
    const noProof = await call(h, 'PUT', '/api/names/alice.coin/primary/LTC', {
      token,
      body: { address: ltc.address },
    });
    expect([noProof.status, noProof.code]).toEqual([400, 'PROOF_REQUIRED']);
    const wrongKey = await setPrimary(token, 'alice.coin', 'LTC', ltc, wallet('LTC'));
    expect([wrongKey.status, wrongKey.code]).toEqual([403, 'WRONG_SIGNER']);
    expect((await reverse(ltc.address)).status).toBe(404);
  });

  it('with the proof it is set, audited, and served by GET /api/reverse/{address}', async () => {
    const r = await setPrimary(token, 'alice.coin', 'LTC', ltc);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      address: ltc.address,
      asset: 'LTC',
      name: 'alice.coin',
      updatedAt: h.clock.now,
    });
    const got = await reverse(ltc.address);
    expect([got.status, got.body]).toEqual([200, r.body]);
    expect(got.raw.headers['cache-control']).toBe('no-cache');
    const etag = got.raw.headers.etag as string;
    expect((await reverse(ltc.address, 'LTC', { 'if-none-match': etag })).status).toBe(304);
    const rows = await audit(h.db, 'alice');
    expect(rows.at(-1)).toMatchObject({ action: 'name.primary', to_state: `LTC:${ltc.address}` });
    expect(rows.at(-1)?.reason).toMatch(/^proof of control, challenge /);
  });

  it("only the holder marks a name primary: another account's public name is 403, anyone's challenge needs a session", async () => {
    const r = await call(h, 'POST', '/api/names/alice.coin/primary/LTC/challenge', {
      token: other,
      body: { address: ltc.address },
    });
    expect([r.status, r.code]).toEqual([403, 'NAME_NOT_YOURS']);
    const anon = await call(h, 'POST', '/api/names/alice.coin/primary/LTC/challenge', {
      body: { address: ltc.address },
    });
    expect([anon.status, anon.code]).toEqual([401, 'AUTH_REQUIRED']);
  });

  it('the latest name marked primary for an address wins', async () => {
    await register(h, other, 'bob.coin');
    expect((await link(h, other, 'bob.coin', 'DOGE', doge)).status).toBe(200);
    expect((await setPrimary(token, 'alice.coin', 'DOGE', doge)).status).toBe(200);
    expect((await reverse(doge.address, 'DOGE')).body.name).toBe('alice.coin');
    expect((await setPrimary(other, 'bob.coin', 'DOGE', doge)).status).toBe(200);
    expect((await reverse(doge.address, 'DOGE')).body.name).toBe('bob.coin');
  });
});

describe('primary names: served only forward-verified and public', () => {
  it('a private name is never returned: the same 404 as no primary at all', async () => {
    const none = await reverse(wallet('LTC').address);
    expect([none.status, none.code]).toEqual([404, 'PRIMARY_NAME_NOT_FOUND']);
    expect((await call(h, 'PATCH', '/api/names/alice.coin', { token, body: { private: true } })).status).toBe(
      200,
    );
    const priv = await reverse(ltc.address);
    expect([priv.status, priv.code, priv.raw.body]).toEqual([404, 'PRIMARY_NAME_NOT_FOUND', none.raw.body]);
    expect(priv.raw.headers['cache-control']).toBe('no-cache');
    expect(
      (await call(h, 'PATCH', '/api/names/alice.coin', { token, body: { private: false } })).status,
    ).toBe(200);
    expect((await reverse(ltc.address)).body.name).toBe('alice.coin');
  });

  it('relinking the coin to another address, or unlinking it, ends the primary', async () => {
    const next = wallet('LTC');
    expect((await link(h, token, 'alice.coin', 'LTC', next)).status).toBe(200);
    expect((await reverse(ltc.address)).code).toBe('PRIMARY_NAME_NOT_FOUND');
    // Linking the old address again does not bring it back: the record went with the relink.
    expect((await link(h, token, 'alice.coin', 'LTC', ltc)).status).toBe(200);
    expect((await reverse(ltc.address)).code).toBe('PRIMARY_NAME_NOT_FOUND');
    expect((await setPrimary(token, 'alice.coin', 'LTC', ltc)).status).toBe(200);
    expect((await call(h, 'DELETE', '/api/names/alice.coin/addresses/LTC', { token })).status).toBe(200);
    expect((await reverse(ltc.address)).code).toBe('PRIMARY_NAME_NOT_FOUND');
    expect((await link(h, token, 'alice.coin', 'LTC', ltc)).status).toBe(200);
    expect((await reverse(ltc.address)).code).toBe('PRIMARY_NAME_NOT_FOUND');
  });

  it('a stored record whose name no longer resolves to the address is not served (forward verification)', async () => {
    expect((await setPrimary(token, 'alice.coin', 'LTC', ltc)).status).toBe(200);
    // Bypass the service, as a stale record left by anything else would: change the link under the record (and
    // tell the embedded read cache, as every repository write does).
    await h.db.query(
      "UPDATE name_addresses SET address = 'ltc1qchangedunderneath' WHERE label = 'alice' AND asset = 'LTC'",
    );
    changed(h.db, 'names');
    expect((await reverse(ltc.address)).code).toBe('PRIMARY_NAME_NOT_FOUND');
    await h.db.query('UPDATE name_addresses SET address = $1 WHERE label = $2 AND asset = $3', [
      ltc.address,
      'alice',
      'LTC',
    ]);
    changed(h.db, 'names');
    expect((await reverse(ltc.address)).body.name).toBe('alice.coin');
  });

  it('DELETE clears it (404 PRIMARY_NAME_NOT_SET when there is none), audited', async () => {
    const r = await call(h, 'DELETE', '/api/names/alice.coin/primary/LTC', { token });
    expect([r.status, r.body]).toEqual([200, { name: 'alice.coin', asset: 'LTC', cleared: [ltc.address] }]);
    expect((await reverse(ltc.address)).status).toBe(404);
    const again = await call(h, 'DELETE', '/api/names/alice.coin/primary/LTC', { token });
    expect([again.status, again.code]).toEqual([404, 'PRIMARY_NAME_NOT_SET']);
    expect((await audit(h.db, 'alice')).at(-1)).toMatchObject({
      action: 'name.primary',
      from_state: `LTC:${ltc.address}`,
      to_state: null,
    });
  });

  it("a transfer ends the giver's primaries", async () => {
    await register(h, token, 'carol.coin');
    const w = wallet('LTC');
    expect((await link(h, token, 'carol.coin', 'LTC', w)).status).toBe(200);
    expect((await setPrimary(token, 'carol.coin', 'LTC', w)).status).toBe(200);
    const to = await signIn(h);
    const t = await call(h, 'POST', '/api/names/carol.coin/transfer', {
      token,
      body: { toAccountId: to.id },
    });
    expect(t.status).toBe(200);
    expect((await reverse(w.address)).code).toBe('PRIMARY_NAME_NOT_FOUND');
    expect((await h.db.query("SELECT 1 FROM primary_names WHERE label = 'carol'")).rows).toEqual([]);
  });

  it('refuses a malformed address or asset with the rule named', async () => {
    const bad = await reverse('not-an-address');
    expect([bad.status, bad.code]).toEqual([400, 'INVALID_ADDRESS']);
    const noAsset = await call(h, 'GET', `/api/reverse/${ltc.address}`);
    expect([noAsset.status, noAsset.code]).toEqual([400, 'MISSING_PARAMETER']);
    const lower = await reverse(ltc.address, 'ltc');
    expect([lower.status, lower.code]).toEqual([400, 'INVALID_PARAMETER']);
    const wrongCoin = await reverse(ltc.address, 'DOGE');
    expect(wrongCoin.status).toBe(400);
  });
});

describe('primary names: partners, custodially', () => {
  it('a partner marks its own name primary for an address it linked, and clears it', async () => {
    const p = await createPartner(h);
    const w = wallet('LTC');
    expect(
      (await partnerCall(h, p, 'POST', '/api/partner/names', { name: 'dave.coin', owner: 'u1' })).status,
    ).toBe(201);
    const needsLink = await partnerCall(h, p, 'PUT', '/api/partner/names/dave.coin/primary/LTC', {
      address: w.address,
    });
    expect([needsLink.status, needsLink.code]).toEqual([409, 'PRIMARY_NEEDS_LINK']);
    expect(
      (await partnerCall(h, p, 'PUT', '/api/partner/names/dave.coin/addresses/LTC', { address: w.address }))
        .status,
    ).toBe(200);
    const set = await partnerCall(h, p, 'PUT', '/api/partner/names/dave.coin/primary/LTC', {
      address: w.address,
    });
    expect([set.status, set.body.name]).toEqual([200, 'dave.coin']);
    expect((await reverse(w.address)).body.name).toBe('dave.coin');
    expect((await audit(h.db, 'dave')).at(-1)?.reason).toBe('custodial (partner)');
    const notTheirs = await partnerCall(h, p, 'PUT', '/api/partner/names/bob.coin/primary/DOGE', {
      address: doge.address,
    });
    expect([notTheirs.status, notTheirs.code]).toEqual([403, 'NAME_NOT_YOURS']);
    expect((await partnerCall(h, p, 'DELETE', '/api/partner/names/dave.coin/primary/LTC')).status).toBe(200);
    expect((await reverse(w.address)).status).toBe(404);
  });
});

describe('POST /api/resolve: bulk resolution, per-item outcomes', () => {
  it('answers each pair as the single resolution would, in order; malformed items are their own 400', async () => {
    await register(h, token, 'hidden.coin');
    expect((await link(h, token, 'hidden.coin', 'LTC', wallet('LTC'))).status).toBe(200);
    expect(
      (await call(h, 'PATCH', '/api/names/hidden.coin', { token, body: { private: true } })).status,
    ).toBe(200);
    const pairs = [
      { name: 'alice.coin', asset: 'LTC' },
      { name: ' ALICE.coin', asset: 'DOGE' },
      { name: 'alice.coin', asset: 'PEP' },
      { name: 'nobody.coin', asset: 'LTC' },
      { name: 'hidden.coin', asset: 'LTC' },
      { name: 'not a name', asset: 'LTC' },
      { name: 'alice.coin', asset: 'ltc' },
    ];
    const r = await call(h, 'POST', '/api/resolve', { body: { names: pairs } });
    expect(r.status).toBe(200);
    expect(r.raw.headers['cache-control']).toBe('no-store');
    const results = r.body.results as Record<string, unknown>[];
    expect(results).toHaveLength(pairs.length);
    // Each item equals the single GET's answer for the same pair (body, or error with its status).
    for (const [i, p] of pairs.entries()) {
      const one = await call(h, 'GET', `/api/resolve/${encodeURIComponent(p.name)}?asset=${p.asset}`);
      if (one.status === 200) expect(results[i]).toEqual({ status: 200, ...one.body });
      else expect(results[i]).toMatchObject({ status: one.status, error: one.body.error });
    }
    expect(results.map((x) => x['status'])).toEqual([200, 200, 404, 404, 404, 400, 400]);
    expect(results[4]).toEqual({
      ...results[3],
      name: 'hidden.coin',
      error: { code: 'NAME_NOT_FOUND', message: 'no public name "hidden.coin" is registered' },
    });
    expect(results[5]).toMatchObject({ name: 'not a name', asset: 'LTC', error: { code: 'INVALID_NAME' } });
  });

  it('takes at most 100 pairs; a malformed body is one 400 naming the item and field', async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      name: `n${String(i).padStart(3, '0')}.coin`,
      asset: 'LTC',
    }));
    const ok = await call(h, 'POST', '/api/resolve', { body: { names: many } });
    expect([ok.status, (ok.body.results as unknown[]).length]).toEqual([200, 100]);
    const tooMany = await call(h, 'POST', '/api/resolve', { body: { names: [...many, many[0]] } });
    expect([tooMany.status, tooMany.code]).toEqual([400, 'BATCH_TOO_LARGE']);
    const empty = await call(h, 'POST', '/api/resolve', { body: { names: [] } });
    expect([empty.status, empty.body]).toEqual([200, { results: [] }]);
    const cases: [unknown, string, string][] = [
      [{}, 'INVALID_BODY', 'names is required'],
      [[], 'INVALID_BODY', 'body must be a JSON object'],
      [{ names: [{ name: 'alice.coin' }] }, 'INVALID_BODY', 'names[0].asset is required'],
      [{ names: [{ name: 'a.coin', asset: 'LTC' }, 7] }, 'INVALID_BODY', 'names[1] must be an object'],
      [{ names: [{ name: 'a.coin', asset: 'LTC', extra: 1 }] }, 'UNKNOWN_FIELD', 'names[0].unknown field'],
      [{ names: [], more: true }, 'UNKNOWN_FIELD', '"more"'],
    ];
    for (const [body, code, mentions] of cases) {
      const r = await call(h, 'POST', '/api/resolve', { body });
      expect([r.status, r.code], JSON.stringify(body)).toEqual([400, code]);
      expect(errorMessage(r)).toContain(mentions);
    }
    const huge = await call(h, 'POST', '/api/resolve', {
      payload: JSON.stringify({ names: ['x'.repeat(17_000)] }),
    });
    expect([huge.status, huge.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('reads the store once for a whole batch', async () => {
    const statements: string[] = [];
    const orig = h.db.query.bind(h.db);
    (h.db as { query: typeof h.db.query }).query = ((sql: string, params?: unknown[]) => {
      statements.push(sql);
      return orig(sql, params as never);
    }) as typeof h.db.query;
    try {
      // Names never asked before: none of them is in the read cache.
      const names = Array.from({ length: 40 }, (_, i) => ({ name: `fresh${i}.coin`, asset: 'DOGE' }));
      const r = await call(h, 'POST', '/api/resolve', { body: { names } });
      expect(r.status).toBe(200);
      expect(statements.filter((s) => /name_addresses/.test(s))).toHaveLength(1);
    } finally {
      (h.db as { query: typeof h.db.query }).query = orig;
    }
  });
});

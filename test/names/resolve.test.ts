import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorMessage, harness, link, register, signIn, wallet } from './harness.ts';
import type { Harness, Res } from './harness.ts';

let h: Harness;
let token: string;
const ltc = wallet('LTC');
beforeAll(async () => {
  h = await harness();
  token = (await signIn(h)).token;
  await register(h, token, 'alice.coin');
  expect((await link(h, token, 'alice.coin', 'LTC', ltc)).status).toBe(200);
  await register(h, token, 'hidden.coin');
  expect((await link(h, token, 'hidden.coin', 'LTC', wallet('LTC'))).status).toBe(200);
  const p = await call(h, 'PATCH', '/api/names/hidden.coin', { token, body: { private: true } });
  expect(p.status).toBe(200);
});
afterAll(async () => {
  await h.close();
});

const resolve = (path: string, headers: Record<string, string> = {}) =>
  call(h, 'GET', `/api/resolve/${path}`, { headers });
/** What a client can observe of a response, but the clock. */
const observable = (r: Res) => {
  const { date: _d, ...headers } = r.raw.headers;
  return { status: r.status, headers, body: r.raw.body };
};

describe('GET /api/resolve/:name', () => {
  it('resolves a public name without any key or session, with an ETag and no-cache', async () => {
    const r = await resolve('alice.coin?asset=LTC');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      name: 'alice.coin',
      asset: 'LTC',
      address: ltc.address,
      updatedAt: h.clock.now,
    });
    expect(r.raw.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(r.raw.headers['cache-control']).toBe('no-cache');
  });

  it('normalises the name (case, spaces) before resolving', async () => {
    const r = await resolve('%20ALICE.Coin?asset=LTC');
    expect([r.status, r.body.name]).toEqual([200, 'alice.coin']);
  });

  it('no such name → 404 NAME_NOT_FOUND; no address for that coin → 404 ADDRESS_NOT_LINKED', async () => {
    const missing = await resolve('nobody.coin?asset=LTC');
    expect([missing.status, missing.code]).toEqual([404, 'NAME_NOT_FOUND']);
    const unlinked = await resolve('alice.coin?asset=DOGE');
    expect([unlinked.status, unlinked.code]).toEqual([404, 'ADDRESS_NOT_LINKED']);
    expect(errorMessage(unlinked)).toBe('alice.coin has no DOGE address linked');
    expect(unlinked.raw.headers['cache-control']).toBe('no-cache');
  });

  it('a private name answers exactly like a missing one (status, code, message, headers), linked or not', async () => {
    const priv = await resolve('hidden.coin?asset=LTC');
    const privUnlinked = await resolve('hidden.coin?asset=DOGE');
    // The same name, now truly missing.
    await h.db.query("DELETE FROM names WHERE label = 'hidden'");
    const missing = await resolve('hidden.coin?asset=LTC');
    expect([priv.status, priv.code]).toEqual([404, 'NAME_NOT_FOUND']);
    expect(observable(privUnlinked)).toEqual(observable(priv));
    expect(observable(missing)).toEqual(observable(priv));
  });

  it('asset is required and must be an uppercase supported ticker → 400 naming the rule', async () => {
    const none = await resolve('alice.coin');
    expect([none.status, none.code]).toEqual([400, 'MISSING_PARAMETER']);
    expect(errorMessage(none)).toContain('asset is required');
    const lower = await resolve('alice.coin?asset=ltc');
    expect([lower.status, lower.code]).toEqual([400, 'INVALID_PARAMETER']);
    expect(errorMessage(lower)).toContain('must be uppercase: LTC');
    const unknown = await resolve('alice.coin?asset=BTC');
    expect([unknown.status, unknown.code]).toEqual([400, 'INVALID_PARAMETER']);
    expect(errorMessage(unknown)).toContain('uppercase ticker such as LTC');
    const twice = await resolve('alice.coin?asset=LTC&asset=DOGE');
    expect(twice.status).toBe(400);
  });

  it('an invalid name → 400 INVALID_NAME with the rule', async () => {
    for (const n of ['al.coin', 'alice.eth', '-alice.coin', 'xn--lice-qqa.coin', '%C3%A1lice.coin']) {
      const r = await resolve(`${n}?asset=LTC`);
      expect([n, r.status, r.code]).toEqual([n, 400, 'INVALID_NAME']);
      expect(errorMessage(r)).toContain('lowercase letters (a-z), digits and inner hyphens');
    }
  });

  it('If-None-Match → 304; a change of address is visible on the very next request', async () => {
    const first = await resolve('alice.coin?asset=LTC');
    const etag = first.raw.headers.etag as string;
    const again = await resolve('alice.coin?asset=LTC', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.raw.headers.etag).toBe(etag);
    expect(again.raw.body).toBe('');
    expect((await resolve('alice.coin?asset=LTC', { 'if-none-match': `W/${etag}` })).status).toBe(304);

    h.clock.now += 1_000;
    const next = wallet('LTC');
    expect((await link(h, token, 'alice.coin', 'LTC', next)).status).toBe(200);
    const changed = await resolve('alice.coin?asset=LTC', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.address).toBe(next.address);
    expect(changed.raw.headers.etag).not.toBe(etag);

    // Made private: the same conditional request is now a 404, never a stale 304.
    await call(h, 'PATCH', '/api/names/alice.coin', { token, body: { private: true } });
    const hidden = await resolve('alice.coin?asset=LTC', {
      'if-none-match': changed.raw.headers.etag as string,
    });
    expect([hidden.status, hidden.code]).toEqual([404, 'NAME_NOT_FOUND']);
    await call(h, 'PATCH', '/api/names/alice.coin', { token, body: { private: false } });
    expect((await resolve('alice.coin?asset=LTC')).status).toBe(200);
  });
});

/**
 * Names both ways in the identity subgraph: `resolveNames` (bulk, batched through the request's loader: every pair
 * in one batch and one store read; a malformed pair fails its item only), `primaryName` (reverse resolution, public
 * and forward-verified only) and the primary-name mutations — each compared with the REST answer for the same
 * request. Setup in `support/identity.ts`.
 */
import { describe, expect, it } from 'vitest';
import { call, wallet } from '../names/harness.ts';
import {
  alice,
  bob,
  codes,
  h,
  keysOf,
  link,
  name,
  ok,
  PRIVACY,
  register,
  reset,
  run,
  statements,
  useIdentityGraph,
} from './support/identity.ts';

useIdentityGraph();

const RESOLVE_NAMES = `query ($names: [NameQuery!]!) {
  resolveNames(names: $names) {
    __typename
    ... on NameResolution { name asset address coin { id } updatedAt }
    ... on NameResolutionError { code message }
    ... on NameNotFound { name }
    ... on AddressNotLinked { name asset }
  }
}`;
const CHALLENGE = `mutation ($name: String!, $asset: String!, $address: String!) {
  requestPrimaryNameChallenge(name: $name, asset: $asset, address: $address) { challenge nonce expiresAt }
}`;
const SET = `mutation ($name: String!, $asset: String!, $address: String!, $signature: String!, $nonce: String!) {
  setPrimaryName(name: $name, asset: $asset, address: $address, signature: $signature, nonce: $nonce) {
    address asset name coin { id } updatedAt
  }
}`;
const PRIMARY = `query ($address: String!, $asset: String!) {
  primaryName(address: $address, asset: $asset) { address asset name coin { id } updatedAt }
}`;

describe('resolveNames', () => {
  it('answers every pair as nameResolution would, in order, loading all of them in one batch and one read', async () => {
    await register(alice.token);
    const w = wallet('LTC');
    expect((await link(alice.token, 'LTC', w)).errors).toBeUndefined();
    const other = `${name.replace('.coin', '')}-hidden.coin`;
    await register(alice.token, other);
    expect((await link(alice.token, 'LTC', wallet('LTC'), other)).errors).toBeUndefined();
    await ok(PRIVACY, { name: other, private: true }, alice.token);
    const pairs = [
      { name, asset: 'LTC' },
      { name: ` ${name.toUpperCase()}`, asset: 'DOGE' },
      { name: 'nobody-at-all.coin', asset: 'LTC' },
      { name: other, asset: 'LTC' },
      { name, asset: 'LTC' },
    ];
    reset();
    const d = await ok<{ resolveNames: Record<string, unknown>[] }>(RESOLVE_NAMES, { names: pairs });
    expect(keysOf('resolution')).toEqual([
      [
        { name, asset: 'LTC' },
        { name, asset: 'DOGE' },
        { name: 'nobody-at-all.coin', asset: 'LTC' },
        { name: other, asset: 'LTC' },
      ],
    ]);
    expect(statements).toHaveLength(1); // the one read of the batch
    expect(d.resolveNames.map((r) => r['__typename'])).toEqual([
      'NameResolution',
      'AddressNotLinked',
      'NameNotFound',
      'NameNotFound',
      'NameResolution',
    ]);
    expect(d.resolveNames[0]).toMatchObject({ address: w.address, coin: { id: 'litecoin' } });
    // Each item is REST's bulk answer for the same pair.
    const rest = await call(h, 'POST', '/api/resolve', { body: { names: pairs } });
    const items = rest.body.results as Record<string, unknown>[];
    d.resolveNames.forEach((g, i) => {
      const r = items[i] as Record<string, unknown>;
      if (g['__typename'] === 'NameResolution') expect(g['address']).toBe(r['address']);
      else expect({ code: g['code'], message: g['message'] }).toEqual(r['error']);
    });
    // A private name is the missing one, but for the name echoed.
    expect(d.resolveNames[3]?.['message']).toBe(`no public name "${other}" is registered`);
  });

  it('a malformed pair is a null item with an error at its index; the other items answer', async () => {
    await register(alice.token);
    const r = await run(RESOLVE_NAMES, {
      names: [
        { name, asset: 'LTC' },
        { name: 'x', asset: 'LTC' },
        { name, asset: 'ltc' },
      ],
    });
    expect(r.data?.['resolveNames']).toEqual([
      expect.objectContaining({ __typename: 'AddressNotLinked' }),
      null,
      null,
    ]);
    expect(codes(r)).toEqual(['INVALID_NAME', 'INVALID_PARAMETER']);
    expect(r.errors?.map((e) => e.path)).toEqual([
      ['resolveNames', 1],
      ['resolveNames', 2],
    ]);
  });

  it('takes at most 100 pairs', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `many-${i}.coin`, asset: 'LTC' }));
    const r = await run(RESOLVE_NAMES, { names: many });
    expect(codes(r)).toEqual(['BATCH_TOO_LARGE']);
    expect(r.data).toBeNull();
    const hundred = await ok<{ resolveNames: unknown[] }>(RESOLVE_NAMES, { names: many.slice(0, 100) });
    expect(hundred.resolveNames).toHaveLength(100);
  });
});

describe('primaryName and its mutations', () => {
  it('set with a signed challenge, served forward-verified and public, cleared; REST agrees throughout', async () => {
    await register(alice.token);
    const w = wallet('LTC');
    const needsLink = await run(CHALLENGE, { name, asset: 'LTC', address: w.address }, alice.token);
    expect(codes(needsLink)).toEqual(['PRIMARY_NEEDS_LINK']);
    expect(needsLink.errors?.[0]?.message).toContain('linkAddress mutation');
    expect((await link(alice.token, 'LTC', w)).errors).toBeUndefined();
    const c = await ok<{ requestPrimaryNameChallenge: { challenge: string; nonce: string } }>(
      CHALLENGE,
      { name, asset: 'LTC', address: w.address },
      alice.token,
    );
    expect(c.requestPrimaryNameChallenge.challenge).toMatch(/^Make .* the primary name of this LTC address:/);
    const byBob = await run(
      SET,
      {
        name,
        asset: 'LTC',
        address: w.address,
        signature: w.sign(c.requestPrimaryNameChallenge.challenge),
        nonce: c.requestPrimaryNameChallenge.nonce,
      },
      bob.token,
    );
    expect(codes(byBob)).toEqual(['NAME_NOT_YOURS']);
    const set = await ok<{ setPrimaryName: Record<string, unknown> }>(
      SET,
      {
        name,
        asset: 'LTC',
        address: w.address,
        signature: w.sign(c.requestPrimaryNameChallenge.challenge),
        nonce: c.requestPrimaryNameChallenge.nonce,
      },
      alice.token,
    );
    expect(set.setPrimaryName).toMatchObject({
      address: w.address,
      asset: 'LTC',
      name,
      coin: { id: 'litecoin' },
    });
    const got = await ok<{ primaryName: Record<string, unknown> }>(PRIMARY, {
      address: w.address,
      asset: 'LTC',
    });
    expect(got.primaryName).toEqual(set.setPrimaryName);
    const rest = await call(h, 'GET', `/api/reverse/${w.address}?asset=LTC`);
    expect(rest.body).toEqual({ ...got.primaryName, coin: undefined, updatedAt: h.clock.now });
    // Private: null, like an address without a primary name, and REST's one 404.
    await ok(PRIVACY, { name, private: true }, alice.token);
    expect(await run(PRIMARY, { address: w.address, asset: 'LTC' })).toEqual({ data: { primaryName: null } });
    expect((await call(h, 'GET', `/api/reverse/${w.address}?asset=LTC`)).code).toBe('PRIMARY_NAME_NOT_FOUND');
    await ok(PRIVACY, { name, private: false }, alice.token);
    const cleared = await ok<{ clearPrimaryName: string[] }>(
      'mutation ($name: String!) { clearPrimaryName(name: $name, asset: "LTC") }',
      { name },
      alice.token,
    );
    expect(cleared.clearPrimaryName).toEqual([w.address]);
    expect(await run(PRIMARY, { address: w.address, asset: 'LTC' })).toEqual({ data: { primaryName: null } });
    const anon = await run('mutation ($name: String!) { clearPrimaryName(name: $name, asset: "LTC") }', {
      name,
    });
    expect(codes(anon)).toEqual(['AUTH_REQUIRED']);
  });

  it('several lookups in one request are one batch; a malformed address is an error naming the rule', async () => {
    const a = wallet('LTC').address;
    const b = wallet('LTC').address;
    reset();
    const d = await ok<Record<string, unknown>>(
      `query ($a: String!, $b: String!) { x: primaryName(address: $a, asset: "LTC") { name } y: primaryName(address: $b, asset: "LTC") { name } }`,
      { a, b },
    );
    expect(d).toEqual({ x: null, y: null });
    expect(keysOf('primaryName')).toEqual([
      [
        { asset: 'LTC', address: a },
        { asset: 'LTC', address: b },
      ],
    ]);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/JOIN primary_names/);
    const bad = await run(PRIMARY, { address: 'not-an-address', asset: 'LTC' });
    expect(codes(bad)).toEqual(['INVALID_ADDRESS']);
    expect(codes(await run(PRIMARY, { address: a, asset: 'ltc' }))).toEqual(['INVALID_PARAMETER']);
  });
});

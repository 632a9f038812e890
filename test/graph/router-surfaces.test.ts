/**
 * Every surface of the graph through the router, with REST's rules, over the embedded graph (`support/router.ts`):
 * sessions, API keys, names and their resolution, the bridge's proof of reserves, and nulls for unverified figures.
 */
import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountErrors } from '../../src/accounts/errors.ts';
import { latestSnapshot } from '../../src/bridge/snapshots.ts';
import { ADMIN_TOKEN, call, signIn, wallet } from '../accounts/harness.ts';
import { linkName } from '../kit/support.ts';
import type { GraphHarness } from './router-harness.ts';
import { CHEAP, freshIp, startRouterGraph } from './support/router.ts';
import type { RouterGraph } from './support/router.ts';

let t: RouterGraph;
let g: GraphHarness;
beforeAll(async () => {
  t = await startRouterGraph();
  g = t.g;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('nulls for unverified figures', () => {
  it('a coin whose market cap is unverified has marketCap null, without an error', async () => {
    const unverified = [...g.tm.market.snapshot!.markets.values()].find((m) => m.marketCapUsd === null);
    expect(unverified).toBeDefined();
    const r = await g.gql(
      'query ($id: ID!) { coin(id: $id) { id marketCap marketCapEur: marketCap(currency: "eur") rank supply { circulating verified } } }',
      { variables: { id: unverified!.id }, ip: freshIp() },
    );
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({
      coin: {
        id: unverified!.id,
        marketCap: null,
        marketCapEur: null,
        rank: null,
        supply: { circulating: null, verified: false },
      },
    });
  });
});

describe('every surface through the router, with REST rules', () => {
  it('sign in through REST, then me, requestApiKey (used once approved), names and resolveName', async () => {
    const w = wallet();
    const token = await signIn(g.rest, w);
    const auth = { authorization: `Bearer ${token}` };
    const me = await g.gql('{ me { id address role } }', { headers: auth });
    const restMe = await call(g.rest, 'GET', '/api/account/me', { token });
    expect(me.body.data).toEqual({ me: { id: restMe.body['id'], address: w.address, role: 'USER' } });

    const req = await g.gql(
      'mutation { requestApiKey(plan: FREE, description: "my dapp") { key apiKey { id plan status owner { id } } } }',
      { headers: auth },
    );
    expect(req.body.errors).toBeUndefined();
    const created = (req.body.data as { requestApiKey: { key: string; apiKey: Record<string, unknown> } })
      .requestApiKey;
    expect(created.apiKey).toMatchObject({ plan: 'FREE', status: 'PENDING', owner: null });
    expect((await g.gql(CHEAP, { headers: { 'x-sp-api-key': created.key } })).status).toBe(401);
    const approved = await call(
      g.rest,
      'POST',
      `/api/admin/api-keys/${String(created.apiKey['id'])}/approve`,
      {
        token: ADMIN_TOKEN,
        body: {},
      },
    );
    expect(approved.status).toBe(200);
    const withKey = await g.gql('{ me { apiKeys { id status } } }', {
      headers: { ...auth, 'x-sp-api-key': created.key },
    });
    expect(withKey.headers['x-api-plan']).toBe('free');
    expect(withKey.body.data).toEqual({
      me: { apiKeys: [{ id: created.apiKey['id'], status: 'APPROVED' }] },
    });

    const name = `router-${Date.now().toString(36)}.coin`;
    const reg = await g.gql(
      'mutation ($n: String!) { registerName(name: $n) { name addresses { asset } } }',
      {
        variables: { n: name },
        headers: auth,
      },
    );
    expect(reg.body).toMatchObject({ data: { registerName: { name, addresses: [] } } });
    const ltc = wallet();
    const ch = await g.gql(
      'mutation ($n: String!, $a: String!) { requestAddressChallenge(name: $n, asset: "LTC", address: $a) { challenge nonce } }',
      { variables: { n: name, a: ltc.address }, headers: auth },
    );
    const { challenge, nonce } = (
      ch.body.data as { requestAddressChallenge: { challenge: string; nonce: string } }
    ).requestAddressChallenge;
    const linked = await g.gql(
      'mutation ($n: String!, $a: String!, $s: String!, $c: String!) { linkAddress(name: $n, asset: "LTC", address: $a, signature: $s, nonce: $c) { name } }',
      { variables: { n: name, a: ltc.address, s: ltc.sign(challenge), c: nonce }, headers: auth },
    );
    expect(linked.body.errors).toBeUndefined();
    // Anyone resolves it; the coin is the markets subgraph's entity.
    const resolved = await g.gql(
      'query ($n: String!) { resolveName(name: $n, asset: "LTC") { name asset address coin { id name } } }',
      { variables: { n: name }, ip: freshIp() },
    );
    expect(resolved.body).toEqual({
      data: {
        resolveName: { name, asset: 'LTC', address: ltc.address, coin: { id: 'litecoin', name: 'Litecoin' } },
      },
      extensions: { cost: expect.objectContaining({ estimated: 2, max: 2500, plan: 'keyless' }) },
    });
  });

  it('nameResolution: each outcome a union member, the Coin from markets, a private name as a missing one', async () => {
    const owner = wallet();
    const stamp = Date.now().toString(36);
    const [name, hidden] = [`union-${stamp}.coin`, `union-hidden-${stamp}.coin`];
    await linkName(g, name, owner);
    await linkName(g, hidden, owner);
    const auth = { authorization: `Bearer ${await signIn(g.rest, owner)}` };
    const priv = await g.gql('mutation ($n: String!) { setNamePrivacy(name: $n, private: true) { name } }', {
      variables: { n: hidden },
      headers: auth,
    });
    expect(priv.body.errors).toBeUndefined();

    const r = await g.gql(
      `query ($n: String!, $h: String!) {
        found: nameResolution(name: $n, asset: "LTC") { ...R }
        unlinked: nameResolution(name: $n, asset: "DOGE") { ...R }
        missing: nameResolution(name: "nobody-router.coin", asset: "LTC") { ...R }
        hidden: nameResolution(name: $h, asset: "LTC") { ...R }
      }
      fragment R on NameResolutionResult {
        __typename
        ... on NameResolution { name address coin { id name } }
        ... on NameResolutionError { code message }
      }`,
      { variables: { n: name, h: hidden }, ip: freshIp() },
    );
    const notFound = (n: string) => ({
      __typename: 'NameNotFound',
      code: 'NAME_NOT_FOUND',
      message: `no public name "${n}" is registered`,
    });
    expect(r.body).toEqual({
      data: {
        found: {
          __typename: 'NameResolution',
          name,
          address: owner.address,
          coin: { id: 'litecoin', name: 'Litecoin' },
        },
        unlinked: {
          __typename: 'AddressNotLinked',
          code: 'ADDRESS_NOT_LINKED',
          message: `${name} has no DOGE address linked`,
        },
        missing: notFound('nobody-router.coin'),
        hidden: notFound(hidden),
      },
      // Per alias: the union field 1, plus its costliest member (NameResolution's coin reference, 1).
      extensions: { cost: expect.objectContaining({ estimated: 8, max: 2500, plan: 'keyless' }) },
    });

    // The deprecated field still answers (old operations and old kits keep working), null for every miss.
    const old = await g.gql(
      `query ($n: String!) { a: resolveName(name: $n, asset: "LTC") { address } b: resolveName(name: $n, asset: "DOGE") { address }
        __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated } } }`,
      { variables: { n: name }, ip: freshIp() },
    );
    const data = old.body.data as {
      a: unknown;
      b: unknown;
      __type: { fields: { name: string; isDeprecated: boolean }[] };
    };
    expect([data.a, data.b]).toEqual([{ address: owner.address }, null]);
    expect(data.__type.fields.filter((f) => /^(resolveName|nameResolution)$/.test(f.name))).toEqual([
      { name: 'nameResolution', isDeprecated: false },
      { name: 'resolveName', isDeprecated: true },
    ]);
  });

  it('bridge proof of reserves: the stored snapshot, verifiable with the attestation key', async () => {
    const r = await g.gql(
      `{ bridge { config { attestation { publicKey } } proofOfReserves { snapshotId report { network assets { ticker coin { id } } } attestation { algorithm signature canonical } } } }`,
      { ip: freshIp() },
    );
    expect(r.body.errors).toBeUndefined();
    const b = (
      r.body.data as {
        bridge: {
          config: { attestation: { publicKey: string } };
          proofOfReserves: {
            snapshotId: number;
            report: { network: string; assets: { ticker: string; coin: { id: string } | null }[] };
            attestation: { algorithm: string; signature: string; canonical: string };
          };
        };
      }
    ).bridge;
    const stored = await latestSnapshot(g.tm.db, g.deployment);
    expect(b.proofOfReserves.snapshotId).toBe(stored?.id);
    expect(b.proofOfReserves.report.network).toBe('testnet');
    expect(b.proofOfReserves.report.assets.length).toBeGreaterThan(0);
    expect(b.proofOfReserves.attestation.algorithm).toBe('ed25519');
    const key = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(b.config.attestation.publicKey, 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const { canonical, signature } = b.proofOfReserves.attestation;
    expect(verify(null, Buffer.from(canonical, 'utf8'), key, Buffer.from(signature, 'hex'))).toBe(true);
  });

  it('a mutation without a session is AUTH_REQUIRED (REST code, the graph form of its message), no data', async () => {
    const r = await g.gql('mutation { requestApiKey(plan: FREE, description: "x") { key } }', {
      ip: freshIp(),
    });
    const viaRest = await call(g.rest, 'POST', '/api/account/api-keys', {
      body: { plan: 'free', description: 'x' },
    });
    expect(viaRest.status).toBe(401);
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect((viaRest.body['error'] as { code: string }).code).toBe('AUTH_REQUIRED');
    expect(r.body.errors).toEqual([
      {
        message: accountErrors.authRequired().graphMessage,
        path: ['requestApiKey'],
        extensions: { code: 'AUTH_REQUIRED', serviceName: 'accounts' },
      },
    ]);
  });
});

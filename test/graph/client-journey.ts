/**
 * The dapp's journey through the router with graphql-request and the codegen typed documents, run by
 * `client.test.ts` twice over the same graph (one store): with the documents' query text, then by persisted
 * document id only. The markets list and a coin's chart in a currency, the signed proof of reserves, signing in over
 * REST, an API key requested through the graph, a name registered, linked and resolved, and the errors a client
 * meets.
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { ClientError, GraphQLClient } from 'graphql-request';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import * as ops from '../../clients/graph/generated/graphql.ts';
import type {
  CoinChartQuery,
  CoinQuery,
  MarketsQuery,
  MeQuery,
  Plan,
  ProofOfReservesQuery,
  RequestApiKeyMutation,
  RequestApiKeyMutationVariables,
  ResolveNameQuery,
} from '../../clients/graph/generated/graphql.ts';
import { ADMIN_TOKEN, wallet } from '../accounts/harness.ts';
import { TEST_NOW } from '../support/price-app.ts';
import type { Wallet } from '../accounts/harness.ts';
import type { GraphHarness } from './router-harness.ts';

export interface Served {
  g: GraphHarness;
  /** `http://127.0.0.1:<port>/graphql`. */
  graphqlUrl: string;
  /** The accounts REST API's origin. */
  restUrl: string;
}

async function postJson(url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Signs in over the REST API as a wallet does: challenge, signature, session token. */
async function signInOverRest(restUrl: string, w: Wallet): Promise<string> {
  const { challenge, nonce } = await postJson(`${restUrl}/api/auth/challenge`, { address: w.address });
  const { token } = await postJson(`${restUrl}/api/auth/session`, {
    address: w.address,
    signature: w.sign(String(challenge)),
    nonce,
  });
  return String(token);
}

/** The GraphQL error of a failed request, as graphql-request reports it. */
export async function failure(
  p: Promise<unknown>,
): Promise<{ status: number; code: unknown; path: unknown }> {
  const e = await p.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ClientError);
  const { response } = e as ClientError;
  const first = response.errors?.[0];
  return { status: response.status, code: first?.extensions?.['code'], path: first?.path };
}

/** ed25519 over the UTF-8 bytes of `canonical`, as a client of the graph checks the proof of reserves. */
function verifies(publicKeyHex: string, canonical: string, signatureHex: string): boolean {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') },
    format: 'jwk',
  });
  return verify(null, Buffer.from(canonical, 'utf8'), key, Buffer.from(signatureHex, 'hex'));
}

const isIso = (s: string): boolean => new Date(s).toISOString() === s;

/**
 * The dapp journey, against `served` with `client` (its transport decides text or persisted ids). The steps depend
 * on each other (sign in → key → name), so they run in order within one describe.
 */
export function journey(mode: string, setup: () => Promise<{ served: Served; client: GraphQLClient }>): void {
  describe(mode, () => {
    let s: Served;
    let client: GraphQLClient;
    const w = wallet();
    let token: string;
    let apiKey: string;
    let apiKeyId: string;
    let ltcEur: number;

    beforeAll(async () => {
      ({ served: s, client } = await setup());
    });

    it('pages the markets list with prices in a currency', async () => {
      const page1 = await client.request(ops.MarketsDocument, { currency: 'eur', first: 5 });
      expectTypeOf(page1).toEqualTypeOf<MarketsQuery>();
      expectTypeOf(page1.coins.edges[0]!.node.price).toEqualTypeOf<number | null>();
      expect(page1.coins.edges).toHaveLength(5);
      expect(page1.coins.totalCount).toBeGreaterThan(5);
      expect(page1.coins.pageInfo.hasNextPage).toBe(true);
      for (const { node } of page1.coins.edges) {
        expect(node.price).toBeTypeOf('number');
        expect(isIso(node.lastUpdated ?? '')).toBe(true);
      }
      const page2 = await client.request(ops.MarketsDocument, {
        currency: 'eur',
        first: 5,
        after: page1.coins.pageInfo.endCursor,
      });
      const ids1 = page1.coins.edges.map((e) => e.node.id);
      for (const e of page2.coins.edges) expect(ids1).not.toContain(e.node.id);

      // The same figure the price REST API gives for that currency.
      const rest = await s.g.tm.app.inject({ url: '/v1/agg/coins/markets?vs_currency=eur&ids=litecoin' });
      const [ltc] = JSON.parse(rest.body) as { current_price: number }[];
      const coin = await client.request(ops.CoinDocument, { id: 'litecoin', currency: 'eur' });
      expect(coin.coin?.price).toBe(ltc?.current_price);
      ltcEur = coin.coin?.price ?? NaN;
    });

    it('reads a coin with its entity fields, and null for an untracked id', async () => {
      const { coin } = await client.request(ops.CoinDocument, { id: 'litecoin', currency: 'usd' });
      expectTypeOf(coin).toEqualTypeOf<CoinQuery['coin']>();
      expectTypeOf<CoinQuery['coin']>().toBeNullable();
      if (!coin) throw new Error('litecoin is tracked');
      expect(coin).toMatchObject({ id: 'litecoin', symbol: 'ltc', name: 'Litecoin' });
      expect(coin.price).not.toBe(ltcEur);
      expect(coin.supply.verified).toBe(coin.supply.circulating !== null);
      expect(coin.venues).toBeGreaterThan(0);
      expect(isIso(coin.ath?.date ?? '')).toBe(true);
      expect(await client.request(ops.CoinDocument, { id: 'not-a-tracked-coin' })).toEqual({ coin: null });
    });

    it('charts a coin in a currency', async () => {
      // The test market's history ends at TEST_NOW while the subgraph charts back from the real clock: a window
      // reaching two days before TEST_NOW (hourly up to 95 days), or a fixed 7 days had 23 points six days after it.
      const days = Math.min(95, Math.max(7, Math.ceil((Date.now() - TEST_NOW) / 86_400_000) + 2));
      const r = await client.request(ops.CoinChartDocument, { id: 'litecoin', days, currency: 'eur' });
      expectTypeOf(r).toEqualTypeOf<CoinChartQuery>();
      expectTypeOf<
        NonNullable<NonNullable<CoinChartQuery['coin']>['chart']>['points'][number]['time']
      >().toEqualTypeOf<string>();
      const points = r.coin?.chart?.points ?? [];
      expect(points.length).toBeGreaterThan(24);
      const times = points.map((p) => Date.parse(p.time));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(points.every((p) => isIso(p.time) && typeof p.price === 'number')).toBe(true);
    });

    it('verifies the signed proof of reserves, with Coin entities across subgraphs', async () => {
      const { bridge } = await client.request(ops.ProofOfReservesDocument);
      expectTypeOf(bridge).toEqualTypeOf<ProofOfReservesQuery['bridge']>();
      expectTypeOf<ProofOfReservesQuery['bridge']['proofOfReserves']>().toBeNullable();
      const por = bridge.proofOfReserves;
      if (!por) throw new Error('the harness records a demo snapshot');
      expect(bridge.network).toBe('TESTNET');
      expect(por.attestation.algorithm).toBe('ed25519');
      const key = bridge.config.attestation.publicKey ?? por.attestation.publicKey;
      expect(verifies(key, por.attestation.canonical, por.attestation.signature)).toBe(true);
      const signed = JSON.parse(por.attestation.canonical) as { assets: { ticker: string }[] };
      expect(por.report.assets.map((a) => a.ticker)).toEqual(signed.assets.map((a) => a.ticker));
      expect(por.report.assets.map((a) => a.coin?.id)).toEqual(['luckycoin', 'dogecoin']);
    });

    it('signs in over REST and reads `me` with the bearer token; `me` is null without one', async () => {
      token = await signInOverRest(s.restUrl, w);
      const me = await client.request(ops.MeDocument, {}, { authorization: `Bearer ${token}` });
      expectTypeOf(me).toEqualTypeOf<MeQuery>();
      expectTypeOf<MeQuery['me']>().toBeNullable();
      expect(me.me).toMatchObject({ address: w.address, role: 'USER', apiKeys: [] });
      expect(await client.request(ops.MeDocument)).toEqual({ me: null });
    });

    it('requests an API key, which works with the x-sp-api-key header once approved', async () => {
      const vars: RequestApiKeyMutationVariables = { plan: 'FREE', description: 'graphql-request test' };
      expectTypeOf(vars.plan).toEqualTypeOf<Plan>();
      const r = await client.request(ops.RequestApiKeyDocument, vars, { authorization: `Bearer ${token}` });
      expectTypeOf(r).toEqualTypeOf<RequestApiKeyMutation>();
      expect(r.requestApiKey.key).toMatch(/^cw_live_/);
      expect(r.requestApiKey.apiKey).toMatchObject({ plan: 'FREE', status: 'PENDING' });
      apiKey = r.requestApiKey.key;
      apiKeyId = r.requestApiKey.apiKey.id;

      // Pending: the router refuses it before running anything (REST's code and status).
      expect(await failure(client.request(ops.MeDocument, {}, { 'x-sp-api-key': apiKey }))).toMatchObject({
        status: 401,
        code: 'API_KEY_PENDING',
      });

      // An administrator approves it (REST, operator token); the key then carries the free plan's budget.
      await postJson(`${s.restUrl}/api/admin/api-keys/${apiKeyId}/approve`, {}, ADMIN_TOKEN);
      const headers: Headers[] = [];
      const keyed = new GraphQLClient(s.graphqlUrl, {
        ...client.requestConfig,
        headers: { 'x-sp-api-key': apiKey, authorization: `Bearer ${token}` },
        responseMiddleware: (res) => {
          if (!(res instanceof Error)) headers.push(res.headers);
        },
      });
      const me = await keyed.request(ops.MeDocument);
      expect(me.me?.apiKeys).toEqual([
        expect.objectContaining({ id: apiKeyId, plan: 'FREE', status: 'APPROVED', limitPerMinute: 600 }),
      ]);
      expect(headers[0]?.get('x-api-plan')).toBe('free');
      expect(headers[0]?.get('x-ratelimit-limit')).toBe('600');
    });

    it('registers and links a name, then resolves it to the address and its coin', async () => {
      const auth = { authorization: `Bearer ${token}` };
      const name = `client-${randomBytes(4).toString('hex')}.coin`;
      const reg = await client.request(ops.RegisterNameDocument, { name }, auth);
      expect(reg.registerName).toMatchObject({ name, private: false });
      const { requestAddressChallenge: c } = await client.request(
        ops.RequestAddressChallengeDocument,
        { name, asset: 'LTC', address: w.address },
        auth,
      );
      const linked = await client.request(
        ops.LinkAddressDocument,
        { name, asset: 'LTC', address: w.address, signature: w.sign(c.challenge), nonce: c.nonce },
        auth,
      );
      expect(linked.linkAddress.addresses).toEqual([
        expect.objectContaining({ asset: 'LTC', address: w.address }),
      ]);

      const r = await client.request(ops.ResolveNameDocument, { name, asset: 'LTC', currency: 'eur' });
      expectTypeOf(r.nameResolution).toEqualTypeOf<ResolveNameQuery['nameResolution']>();
      // The generated type is a union on __typename: the address exists only once narrowed to NameResolution.
      const found = r.nameResolution;
      if (found?.__typename !== 'NameResolution') throw new Error(`not found: ${JSON.stringify(found)}`);
      expectTypeOf(found.address).toEqualTypeOf<string>();
      expect(found).toMatchObject({
        name,
        asset: 'LTC',
        address: w.address,
        coin: { id: 'litecoin', symbol: 'ltc', price: ltcEur },
      });
      expect(await client.request(ops.ResolveNameDocument, { name, asset: 'DOGE' })).toEqual({
        nameResolution: {
          __typename: 'AddressNotLinked',
          code: 'ADDRESS_NOT_LINKED',
          message: `${name} has no DOGE address linked`,
        },
      });
      expect(await client.request(ops.ResolveNameDocument, { name: `x${name}`, asset: 'LTC' })).toEqual({
        nameResolution: {
          __typename: 'NameNotFound',
          code: 'NAME_NOT_FOUND',
          message: `no public name "x${name}" is registered`,
        },
      });
    });

    it('surfaces GraphQL errors as ClientError with extensions.code', async () => {
      expect(await failure(client.request(ops.MarketsDocument, { currency: 'xyz', first: 1 }))).toMatchObject(
        {
          code: 'INVALID_CURRENCY',
          path: expect.arrayContaining(['coins', 'edges']),
        },
      );
      expect(
        await failure(client.request(ops.RequestApiKeyDocument, { plan: 'PRO', description: 'no session' })),
      ).toMatchObject({ code: 'AUTH_REQUIRED', path: ['requestApiKey'] });
      expect(
        await failure(client.request(ops.ResolveNameDocument, { name: 'not a name!', asset: 'LTC' })),
      ).toMatchObject({ code: 'INVALID_NAME' });
      expect(
        await failure(client.request(ops.MeDocument, {}, { 'x-sp-api-key': 'cw_live_not-a-key' })),
      ).toMatchObject({ status: 401, code: 'API_KEY_UNKNOWN' });
      // Compile-time only: the typed document rejects variables that do not fit.
      // @ts-expect-error `id` is required by the Coin operation
      const _missing = () => client.request(ops.CoinDocument, { currency: 'eur' });
      const _badPlan = () =>
        // @ts-expect-error `plan` is an enum of the schema
        client.request(ops.RequestApiKeyDocument, { plan: 'GOLD', description: '' });
    });
  });
}

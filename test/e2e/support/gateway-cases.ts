/**
 * The operations of the gateway differential e2e (`test/e2e/gateways.e2e.ts`): the in-process differential's
 * (`test/graph/operations.ts`) and more — every root field of the API schema, entity hops across subgraphs, a
 * signed-in `me` with keys and names, the operator's review fields, mutations that succeed and that fail, bad
 * arguments and unknown ids — each sent alike to our router, Hive Gateway and a vanilla Apollo Gateway.
 */
import { CASES } from '../../graph/operations.ts';

/** Who sends the operation: nobody, the test account's session, the operator token, a token that is no session. */
export type Caller = 'anonymous' | 'session' | 'operator' | 'bad-session';

export interface GatewayCase {
  name: string;
  query: string;
  /** Variables; a function for a mutation that must not collide with itself on the next gateway. */
  variables?: Record<string, unknown> | ((gateway: string) => Record<string, unknown>);
  operationName?: string;
  as: Caller;
  /**
   * How our router is called: with the test's enterprise key (default), keyless (its 2,500 ceiling), or with an
   * unknown key. The third-party gateways ignore `x-sp-api-key`.
   */
  key?: 'enterprise' | 'none' | 'unknown';
  /** The error codes our router answers (sorted), when the case is about them: proves it asks what it says. */
  codes?: string[];
}

/** What the cases refer to: made through our router before they run (`gateways.e2e.ts`). */
export interface Fixture {
  /** A name the test account registered, its LTC address linked. */
  name: string;
  /** The test account's LTC address. */
  address: string;
  /** An API key the test account requested (pending). */
  keyId: string;
}

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

export function gatewayCases(f: Fixture): GatewayCase[] {
  const reused: GatewayCase[] = CASES.map((c) => ({
    name: c.name,
    query: c.query,
    ...(c.variables ? { variables: c.variables } : {}),
    ...(c.operationName ? { operationName: c.operationName } : {}),
    as: c.session ? 'session' : 'anonymous',
  }));
  return [
    ...reused,
    // markets: every root field, bad arguments
    {
      name: 'coins by ids, category and order',
      query: `{ coins(ids: ["bitcoin", "litecoin", "dogecoin"], order: ID_DESC) { totalCount edges { node { id symbol } } }
        all: coins(first: 2, category: "wallet-kit-coins") { totalCount edges { node { id categories { id } } } } }`,
      as: 'anonymous',
    },
    {
      name: 'categories with their top coins',
      query: '{ categories(order: MARKET_CAP_DESC) { id name topCoins { id symbol } } }',
      as: 'anonymous',
    },
    {
      name: 'an unknown category: INVALID_CATEGORY',
      query: '{ coins(category: "no-such-category") { totalCount } }',
      as: 'anonymous',
      codes: ['INVALID_CATEGORY'],
    },
    {
      name: 'a cursor this server did not issue: INVALID_PARAMETER',
      query: '{ coins(first: 2, after: "not-a-cursor") { totalCount } }',
      as: 'anonymous',
      codes: ['INVALID_PARAMETER'],
    },
    {
      name: 'a malformed coin id beside good data: INVALID_COIN_ID',
      query: '{ coin(id: "Not An Id!") { id } currencies }',
      as: 'anonymous',
      codes: ['INVALID_COIN_ID'],
    },
    {
      name: 'an unknown currency on a global figure: INVALID_CURRENCY, the rest answered',
      query: '{ global { verifiedCoins totalMarketCap(currency: "xxx") } }',
      as: 'anonymous',
      codes: ['INVALID_CURRENCY'],
    },
    {
      name: 'chart days out of range: INVALID_PARAMETER',
      query: '{ coin(id: "litecoin") { id chart(days: 0) { points { time } } } }',
      as: 'anonymous',
      codes: ['INVALID_PARAMETER'],
    },
    {
      name: 'a search query too short: INVALID_PARAMETER',
      query: '{ search(query: "") { coins { id } } }',
      as: 'anonymous',
      codes: ['INVALID_PARAMETER'],
    },
    // bridge and identity, entity hops into markets
    {
      name: 'bridge reserves with their coins: bridge → markets',
      query: `{ bridge { label proofOfReserves { snapshotId assets { ticker coin { id symbol price } } } } }`,
      as: 'anonymous',
    },
    {
      name: 'a registered name with its linked coin: identity → markets',
      query: `query ($n: String!) { name(name: $n) { name addresses { asset address coin { id symbol price } } } }`,
      variables: { n: f.name },
      as: 'anonymous',
    },
    {
      name: 'resolution of a linked name, by union member: identity → markets',
      query: `query ($n: String!) { nameResolution(name: $n, asset: "LTC") { __typename
        ... on NameResolution { address coin { id marketCap } } ... on NameResolutionError { code } }
        old: resolveName(name: $n, asset: "LTC") { address } }`,
      variables: { n: f.name },
      as: 'anonymous',
    },
    {
      name: 'a malformed name: INVALID_NAME',
      query: '{ name(name: "no suffix") { name } }',
      as: 'anonymous',
      codes: ['INVALID_NAME'],
    },
    {
      name: 'a malformed asset: INVALID_PARAMETER',
      query: '{ nameResolution(name: "nobody.coin", asset: "litecoin!") { __typename } }',
      as: 'anonymous',
      codes: ['INVALID_PARAMETER'],
    },
    {
      name: 'bulk resolution, one malformed pair failing alone: identity → markets',
      query: `query ($n: String!) { resolveNames(names: [{ name: $n, asset: "LTC" }, { name: "nobody.coin", asset: "LTC" },
        { name: "no suffix", asset: "LTC" }]) { __typename ... on NameResolution { address coin { id } } } }`,
      variables: { n: f.name },
      as: 'anonymous',
      codes: ['INVALID_NAME'],
    },
    {
      name: 'the primary name of an address that has none, and of a malformed one',
      query: `query ($a: String!) { primaryName(address: $a, asset: "LTC") { name }
        bad: primaryName(address: "not-an-address", asset: "LTC") { name } }`,
      variables: { a: f.address },
      as: 'anonymous',
      codes: ['INVALID_ADDRESS'],
    },
    // markets: CoinGecko's breadth
    {
      name: 'venues with their tickers, one by id, an unknown one',
      query: `{ exchanges { id name kind trustScore } one: exchange(id: "binance") { id name }
        none: exchange(id: "no-such-venue") { id } }`,
      as: 'anonymous',
    },
    {
      name: 'exchange rates, movers, new coins and the market-wide chart',
      query: `{ exchangeRates { code unit type } topMovers(currency: "eur", duration: D7) { gainers { coin { id } change }
        losers { coin { id } change } } newCoins(first: 5) { coin { id } listedAt } globalChart(days: 2) { points { time } } }`,
      as: 'anonymous',
    },
    // accounts, signed in and not
    {
      name: 'signed in: me with keys and names, their coins: accounts → identity → markets',
      query: `{ me { address role apiKeys { prefix plan status description } names { name private
        addresses { asset coin { id symbol } } } } }`,
      as: 'session',
    },
    {
      name: 'signed in: a key of mine by id, and one that does not exist',
      query: `query ($id: ID!) { mine: apiKey(id: $id) { prefix plan status owner { address } } none: apiKey(id: "${NO_SUCH_ID}") { id } }`,
      variables: { id: f.keyId },
      as: 'session',
    },
    {
      name: 'a token that is no session: INVALID_SESSION, me null',
      query: '{ me { id } currencies }',
      as: 'bad-session',
      codes: ['INVALID_SESSION'],
    },
    {
      name: 'the operator: no account, the review queues and the administrators',
      query: `{ me { id } reviewApiKeys(status: PENDING) { prefix plan description owner { address } }
        reviewDapps { id } admins { address } }`,
      as: 'operator',
    },
    {
      name: 'review fields signed in without the admin role: FORBIDDEN',
      query: '{ reviewDapps { id } }',
      as: 'session',
      codes: ['FORBIDDEN'],
    },
    {
      name: 'service statistics without a session: AUTH_REQUIRED',
      query: '{ serviceStats(minutes: 5) { from } }',
      as: 'anonymous',
      codes: ['AUTH_REQUIRED'],
    },
    {
      name: 'service statistics over too long a window: INVALID_PARAMETER',
      query: '{ serviceStats(minutes: 100000) { from } }',
      as: 'operator',
      codes: ['INVALID_PARAMETER'],
    },
    {
      name: 'the dapp store and dapp access',
      query: `{ dappStore(first: 5, chain: "doge") { totalCount pageInfo { hasNextPage } edges { node { name } } }
        dappAccess(origin: "https://nowhere.example") { origin allowed dappId } }`,
      as: 'anonymous',
    },
    {
      name: 'a dapp store page size out of range: INVALID_PARAMETER',
      query: '{ dappStore(first: 0) { totalCount } }',
      as: 'anonymous',
      codes: ['INVALID_PARAMETER'],
    },
    {
      name: 'a dapp origin that is no URL: INVALID_PARAMETER',
      query: '{ dappAccess(origin: "not a url") { allowed } }',
      as: 'anonymous',
      codes: ['INVALID_PARAMETER'],
    },
    // mutations
    {
      name: 'a mutation that succeeds: a sign-in challenge (the stable fields)',
      query: 'mutation ($a: String!) { requestSignInChallenge(address: $a) { domain address } }',
      variables: { a: f.address },
      as: 'anonymous',
    },
    {
      name: 'a mutation that succeeds: a name registered, one per gateway',
      query: 'mutation ($n: String!) { registerName(name: $n) { private addresses { asset } } }',
      variables: (gateway) => ({ n: `${gateway.split(' ')[0]!.toLowerCase()}-${f.name}` }),
      as: 'session',
    },
    {
      name: 'a mutation that succeeds: an API key requested',
      query: `mutation { requestApiKey(plan: FREE, description: "gateway differential") {
        apiKey { plan status description limitPerMinute owner { address } } } }`,
      as: 'session',
    },
    {
      name: 'a name already taken: NAME_TAKEN',
      query: 'mutation ($n: String!) { registerName(name: $n) { name } }',
      variables: { n: f.name },
      as: 'session',
      codes: ['NAME_TAKEN'],
    },
    {
      name: 'sign-in with a malformed signature',
      query:
        'mutation ($a: String!) { signIn(address: $a, signature: "not base64!", nonce: "00") { token } }',
      variables: { a: f.address },
      as: 'anonymous',
    },
    {
      name: 'a sign-in challenge for no address: INVALID_ADDRESS',
      query: 'mutation { requestSignInChallenge(address: "not-an-address") { nonce } }',
      as: 'anonymous',
      codes: ['INVALID_ADDRESS'],
    },
    {
      name: 'revoking a key that does not exist: KEY_NOT_FOUND',
      query: `mutation { revokeApiKey(id: "${NO_SUCH_ID}") { id } }`,
      as: 'session',
      codes: ['KEY_NOT_FOUND'],
    },
    {
      name: 'an operator mutation signed in as a plain account: FORBIDDEN',
      query: `mutation { approveApiKey(id: "${NO_SUCH_ID}") { id } }`,
      as: 'session',
      codes: ['FORBIDDEN'],
    },
    {
      name: 'a transfer without a target: INVALID_BODY',
      query: 'mutation ($n: String!) { transferName(name: $n) { name } }',
      variables: { n: f.name },
      as: 'session',
      codes: ['INVALID_BODY'],
    },
    {
      name: 'a dapp submission with a blank name',
      query: `mutation { submitDapp(input: { name: " ", site: "https://a.example", icon: "https://a.example/i.png",
        description: "a dapp", contactEmail: "a@a.example", chains: ["DOGE"] }) { id } }`,
      as: 'session',
    },
    {
      name: 'an operator mutation with a bad address',
      query: 'mutation { grantAdmin(address: "nope") { id } }',
      as: 'operator',
      codes: ['INVALID_ADDRESS'],
    },
    {
      name: 'two mutations, the second failing: the first result kept',
      query: `mutation ($a: String!) { ok: requestSignInChallenge(address: $a) { address }
        bad: requestSignInChallenge(address: "nope") { address } }`,
      variables: { a: f.address },
      as: 'anonymous',
      codes: ['INVALID_ADDRESS'],
    },
    // what our router refuses before executing (BY_DESIGN in gateways.e2e.ts)
    {
      name: 'an unknown API key',
      query: '{ currencies }',
      as: 'anonymous',
      key: 'unknown',
      codes: ['API_KEY_UNKNOWN'],
    },
    {
      name: 'over the keyless cost ceiling',
      // 1 + 4 × (1 + 1 + 20 + 721 hourly points) = 2,973 > 2,500
      query: '{ coins(first: 4) { edges { node { id chart(days: 30) { points { price } } } } } }',
      as: 'anonymous',
      key: 'none',
      codes: ['COST_ESTIMATED_TOO_EXPENSIVE'],
    },
  ];
}

/** Sent after the identity subgraph has been stopped: what each gateway does without one subgraph. */
export function stoppedSubgraphCases(f: Fixture): GatewayCase[] {
  return [
    {
      name: 'identity stopped: markets answers, the nullable identity field is null',
      query: `{ coin(id: "bitcoin") { id symbol } nameResolution(name: "${f.name}", asset: "LTC") { __typename } }`,
      as: 'anonymous',
    },
    {
      name: 'identity stopped: an entity hop into it nulls the nearest nullable parent',
      query: '{ me { address names { name } } }',
      as: 'session',
    },
  ];
}

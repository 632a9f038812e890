/**
 * Operations over the whole graph for tests that compare two ways of answering them (direct execution against the
 * gateway, our router against a vanilla gateway): one subgraph and several, fragments, variables, unions,
 * introspection, errors in the result and refusals before execution, with and without a session.
 */

export interface Case {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  /** Answered by direct execution in embedded mode (`router/direct-execution.ts`), else through the gateway. */
  direct: boolean;
  /** Sent with the signed-in session of a test account. */
  session?: boolean;
}

export const CASES: Case[] = [
  {
    name: 'a page of coins',
    query: '{ coins(first: 100) { edges { node { id symbol price volume24h changes { h24 } } } } }',
    direct: true,
  },
  {
    name: 'aliases, named fragments, __typename, the same field with other arguments',
    query: `query Two { a: coin(id: "bitcoin") { ...F } b: coin(id: "litecoin") { ...F __typename }
      c: coin(id: "dogecoin") { usd: price eur: price(currency: "eur") btc: price(currency: "btc") id id }
    } fragment F on Coin { id name price(currency: "eur") marketCap fullyDilutedValuation ath { value date } atl(currency: "eur") { value } }`,
    operationName: 'Two',
    direct: true,
  },
  {
    name: 'inline fragments and @include/@skip with variables, connection fields',
    query: `query ($inc: Boolean!, $skip: Boolean!, $o: CoinOrder, $after: String) {
      __typename
      coins(first: 3, order: $o, after: $after) { __typename edges { cursor node { id ... on Coin @include(if: $inc) { symbol }
        price @skip(if: $skip) } } pageInfo { hasNextPage endCursor } }
    }`,
    variables: { inc: true, skip: false, o: 'VOLUME_DESC', after: null },
    direct: true,
  },
  {
    name: 'the same, the other way round',
    query: `query ($inc: Boolean!, $skip: Boolean!) { coins(first: 3) { edges { node { id
      ... on Coin @include(if: $inc) { symbol } price @skip(if: $skip) } } } }`,
    variables: { inc: false, skip: true },
    direct: true,
  },
  { name: 'an unknown coin is null', query: '{ coin(id: "no-such-coin") { id name } }', direct: true },
  {
    name: 'history and sparkline',
    query: `{ coin(id: "bitcoin") { chart(days: 1) { points { time price marketCap volume } } sparkline7d } }`,
    direct: true,
  },
  {
    name: 'candles',
    query: '{ coin(id: "litecoin") { candles(days: 7) { time open high low close } } }',
    direct: true,
  },
  {
    name: 'global, categories, trending, search, currencies',
    query: `{ global { totalMarketCap totalVolume(currency: "eur") verifiedCoins marketCapPercentage { symbol percentage } updatedAt }
      categories { id name marketCap } trending { coin { id } score surge } search(query: "lite") { coins { id } categories { id } }
      currencies }`,
    direct: true,
  },
  { name: 'market health', query: '{ marketHealth { sources { name rejected } } }', direct: true },
  {
    name: 'identity alone',
    query: '{ resolveName(name: "nobody.coin", asset: "LTC") { address } }',
    direct: true,
  },
  {
    name: 'identity alone: a result union, by member and by interface',
    query: `{ a: nameResolution(name: "nobody.coin", asset: "LTC") { __typename ... on NameResolutionError { code message } }
      b: nameResolution(name: "nobody.coin", asset: "DOGE") { ... on NameNotFound { name } ... on NameResolution { address coin { id } } } }`,
    direct: true,
  },
  {
    name: 'bridge alone, with the Coin key field',
    query: `{ bridge { network coins { ticker coin { id } lanes { id status } } config { staleAfterSeconds }
      proofOfReserves { stale snapshotId } } }`,
    direct: true,
  },
  {
    name: 'several subgraphs: the gateway',
    query: '{ coin(id: "bitcoin") { id price } bridge { coins { ticker coin { id price } } } }',
    direct: false,
  },
  {
    name: 'introspection: the gateway',
    query: '{ __type(name: "Coin") { name } coin(id: "bitcoin") { id } }',
    direct: false,
  },
  {
    name: 'an error in the result: the gateway, in its shape',
    query: '{ coin(id: "bitcoin") { id price(currency: "zzz") } }',
    direct: false,
  },
  {
    name: 'a bad argument: the gateway',
    query: '{ coins(first: 500) { edges { node { id } } } }',
    direct: false,
  },
  { name: 'no session: me is null', query: '{ me { id } }', direct: true },
  {
    name: 'signed in: the account, its keys and dapp requests',
    query: '{ me { id address role createdAt apiKeys { id plan status } dappRequests { id } } }',
    session: true,
    direct: true,
  },
  {
    name: 'signed in, across subgraphs: the gateway',
    query: '{ me { id names { name } } coin(id: "bitcoin") { id } }',
    session: true,
    direct: false,
  },
  {
    name: 'a variable of the wrong type: refused before either path',
    query: 'query ($n: Int) { coins(first: $n) { edges { node { id } } } }',
    variables: { n: 'ten' },
    direct: false,
  },
  {
    name: 'the same field under two response keys, in two selections of one list',
    query: '{ global { marketCapPercentage { a: symbol __typename } marketCapPercentage { symbol } } }',
    direct: true,
  },
  {
    name: 'a list selected twice, one field skipped by a variable, across subgraphs: the gateway',
    query: `query ($no: Boolean!) { marketHealth { confidence { to @include(if: $no) to } confidence { from coins } }
      bridge { coins { ticker coin { id } } coins { coin { symbol @skip(if: true) id } } } }`,
    variables: { no: false },
    direct: false,
  },
  {
    name: 'every root field skipped by @include: an empty answer',
    query: 'query ($no: Boolean!) { coin(id: "bitcoin") @include(if: $no) { id } }',
    variables: { no: false },
    direct: true,
  },
  {
    name: 'a field no type has: a validation error',
    query: '{ coin(id: "bitcoin") { id noSuchField } }',
    direct: false,
  },
  {
    name: 'a mutation without a session: refused by the subgraph',
    query: 'mutation { signOut }',
    direct: false,
  },
];

/**
 * The requests of the soak benchmark (`bench/soak.bench.ts`): each one drawn at random, so that no two in a row
 * share their coins, sizes, currencies or days, as the traffic of many different clients would. A seeded generator:
 * the same `SEED` gives the same sequence of requests.
 */
import { request } from 'node:http';
import type { Agent } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** The coin ids, currencies and other vocabularies the server serves, read from it before the run. */
export interface Vocabulary {
  coins: string[];
  currencies: string[];
}

/** One request to send: REST (`GET path`) or the graph (`POST /graphql` with `body`). */
export interface Call {
  kind: 'rest' | 'graph' | 'name';
  path: string;
  body?: string;
  /** Sent with the enterprise key; `false`: keyless (the public `/api` bucket). */
  keyed: boolean;
}

const ORDERS = [
  'MARKET_CAP_DESC',
  'MARKET_CAP_ASC',
  'VOLUME_DESC',
  'VOLUME_ASC',
  'ID_ASC',
  'ID_DESC',
  'GAINERS',
];
const REST_ORDERS = ['market_cap_desc', 'market_cap_asc', 'volume_desc', 'volume_asc', 'id_asc', 'id_desc'];
const ASSETS = ['LTC', 'DOGE', 'DGB', 'PEP', 'BELLS'];

/** Random draws over a vocabulary. */
export class Draw {
  constructor(
    readonly v: Vocabulary,
    readonly r: () => number,
  ) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)] as T;
  }
  coin(): string {
    return this.pick(this.v.coins);
  }
  coins(n: number): string[] {
    return Array.from({ length: n }, () => this.coin());
  }
  currency(): string {
    // Most traffic asks for the usual few, as clients do; the rest for any currency the server knows.
    return this.r() < 0.6 ? this.pick(['usd', 'eur', 'btc']) : this.pick(this.v.currencies);
  }
  /** A name that may or may not exist: clients resolve what their users type. */
  name(): string {
    return `${this.pick(['alice', 'bob', 'shop', 'pay', 'dex'])}${this.int(0, 99_999)}.coin`;
  }
}

const graph = (query: string, variables?: Record<string, unknown>): Call => ({
  kind: 'graph',
  path: '/graphql',
  body: JSON.stringify(variables ? { query, variables } : { query }),
  keyed: true,
});

/**
 * A graph query of the steady traffic: lists, one coin with a chart or candles, prices of some coins, search. Half
 * with variables, half with the values written into the query (many clients do that), so the documents vary too.
 */
export function graphCall(d: Draw): Call {
  const c = d.currency();
  const inline = d.r() < 0.5;
  switch (d.int(0, 5)) {
    case 0: {
      const first = d.int(1, 100);
      const order = d.pick(ORDERS);
      return inline
        ? graph(
            `{ coins(first: ${first}, order: ${order}) { edges { node { id symbol price(currency: "${c}") marketCap(currency: "${c}") } } } }`,
          )
        : graph(
            'query List($first: Int, $order: CoinOrder, $c: String!) { coins(first: $first, order: $order) { edges { node { id symbol price(currency: $c) marketCap(currency: $c) volume24h(currency: $c) } } pageInfo { hasNextPage endCursor } } }',
            { first, order, c },
          );
    }
    case 1: {
      const id = d.coin();
      const days = d.pick([1, 2, 7, 14, 30, 90, 180, 365]);
      return inline
        ? graph(
            `{ coin(id: "${id}") { id name chart(days: ${days}, currency: "${c}") { points { time price } } } }`,
          )
        : graph(
            'query Chart($id: ID!, $days: Int!, $c: String!) { coin(id: $id) { id chart(days: $days, currency: $c) { points { time price marketCap volume } } } }',
            { id, days, c },
          );
    }
    case 2: {
      const id = d.coin();
      const days = d.pick([1, 7, 14, 30, 90]);
      return graph(
        'query Candles($id: ID!, $days: Int!, $c: String!) { coin(id: $id) { id candles(days: $days, currency: $c) { time open high low close } } }',
        { id, days, c },
      );
    }
    case 3: {
      const ids = d.coins(d.int(1, 12));
      return inline
        ? graph(
            `{ coins(ids: ${JSON.stringify(ids)}, first: 12) { edges { node { id price(currency: "${c}") priceChange24h(currency: "${c}") } } } }`,
          )
        : graph(
            'query Prices($ids: [ID!], $c: String!) { coins(ids: $ids, first: 12) { edges { node { id price(currency: $c) high24h(currency: $c) low24h(currency: $c) } } } }',
            { ids, c },
          );
    }
    case 4:
      return graph('query Search($q: String!) { search(query: $q) { coins { id name } } }', {
        q: d.coin().slice(0, d.int(2, 5)),
      });
    default:
      return graph(
        `{ coin(id: "${d.coin()}") { id ath(currency: "${c}") { value date } sparkline7d(currency: "${c}") supply { circulating verified } } }`,
      );
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A price API request with varying ids, currencies and days. */
export function restCall(d: Draw): Call {
  const c = d.currency();
  const get = (path: string): Call => ({ kind: 'rest', path: `/v1/agg${path}`, keyed: true });
  switch (d.int(0, 4)) {
    case 0:
      return get(
        `/simple/price?ids=${d.coins(d.int(1, 8)).join(',')}&vs_currencies=${[c, d.currency()].join(',')}&include_24hr_change=${d.r() < 0.5}`,
      );
    case 1:
      return get(
        `/coins/${d.coin()}/market_chart?vs_currency=${c}&days=${d.pick([1, 2, 7, 14, 30, 90, 180, 365])}`,
      );
    case 2:
      return get(
        `/coins/markets?vs_currency=${c}&order=${d.pick(REST_ORDERS)}&per_page=${d.int(5, 100)}&page=${d.int(1, 3)}`,
      );
    case 3:
      return get(`/coins/${d.coin()}/ohlc?vs_currency=${c}&days=${d.pick([1, 7, 14, 30, 90])}`);
    default:
      return get(`/coins/${d.coin()}/history?date=${pad(d.int(1, 28))}-${pad(d.int(1, 10))}-2026`);
  }
}

/** A name resolution: through the graph (with the key), or now and then the keyless REST route. */
export function nameCall(d: Draw): Call {
  const name = d.name();
  const asset = d.pick(ASSETS);
  if (d.r() < 0.3) return { kind: 'name', path: `/api/resolve/${name}?asset=${asset}`, keyed: false };
  return {
    ...graph('query R($n: String!, $a: String!) { resolveName(name: $n, asset: $a) { address } }', {
      n: name,
      a: asset,
    }),
    kind: 'name',
  };
}

/** One request of the steady mix: 45 % graph, 45 % REST, 10 % names. */
export function steadyCall(d: Draw): Call {
  const x = d.r();
  return x < 0.45 ? graphCall(d) : x < 0.9 ? restCall(d) : nameCall(d);
}

/**
 * A request of the burst: what an enterprise client's batch job sends, bigger and more varied than the steady mix
 * (pages of up to 250 coins, several coins' charts in one query, many currencies), every one distinct.
 */
export function burstCall(d: Draw): Call {
  const c = d.currency();
  switch (d.int(0, 3)) {
    case 0:
      return graph(
        'query Page($first: Int, $order: CoinOrder, $c: String!) { coins(first: $first, order: $order) { edges { node { id symbol name rank price(currency: $c) marketCap(currency: $c) volume24h(currency: $c) high24h(currency: $c) low24h(currency: $c) sparkline7d(currency: $c) } } } }',
        { first: d.int(20, 250), order: d.pick(ORDERS), c },
      );
    case 1: {
      const ids = d.coins(d.int(2, 4));
      const days = d.pick([7, 14, 30, 60, 90]);
      return graph(
        `{ coins(ids: ${JSON.stringify(ids)}, first: 4) { edges { node { id chart(days: ${days}, currency: "${c}", interval: HOURLY) { points { time price volume } } } } } }`,
      );
    }
    case 2:
      return graph(
        `{ coin(id: "${d.coin()}") { id candles(days: ${d.int(1, 365)}, currency: "${c}") { time open high low close } tickers(first: ${d.int(1, 50)}) { base target last } } }`,
      );
    default:
      return graph(
        `{ coins(first: ${d.int(1, 100)}) { edges { node { id price(currency: "${c}") } } } topMovers(currency: "${c}") { gainers { coin { id } change price } losers { coin { id } change } } }`,
      );
  }
}

/** Answers of one phase, counted by status and, for a refusal, its error code (`"400 INVALID_PARAMETER"`). */
export type Statuses = Record<string, number>;

/**
 * Sends `call`; resolves once the whole body is read with its HTTP status, followed by the error code of a refusal
 * (REST's `error.code`, the graph's first `extensions.code`); `"0"` when the connection failed.
 */
export function send(base: string, agent: Agent, key: string, call: Call): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      new URL(call.path, base),
      {
        method: call.body === undefined ? 'GET' : 'POST',
        agent,
        headers: {
          'accept-encoding': 'gzip, br',
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(call.keyed ? { 'x-sp-api-key': key } : {}),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 400) {
          res.resume();
          res.on('end', () => resolve(String(status)));
        } else {
          const parts: Buffer[] = [];
          res.on('data', (b: Buffer) => parts.push(b));
          res.on('end', () => resolve(`${status} ${errorCode(res.headers['content-encoding'], parts)}`));
        }
        res.on('error', () => resolve('0'));
      },
    );
    req.on('error', () => resolve('0'));
    req.end(call.body);
  });
}

function decode(encoding: string | undefined, parts: Buffer[]): string {
  const raw = Buffer.concat(parts);
  if (encoding === 'br') return brotliDecompressSync(raw).toString();
  if (encoding === 'gzip') return gunzipSync(raw).toString();
  return raw.toString();
}

function errorCode(encoding: string | undefined, parts: Buffer[]): string {
  try {
    const b = JSON.parse(decode(encoding, parts)) as {
      error?: { code?: string };
      errors?: { extensions?: { code?: string } }[];
    };
    return b.error?.code ?? b.errors?.[0]?.extensions?.code ?? '?';
  } catch {
    return '?';
  }
}

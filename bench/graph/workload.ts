/**
 * The varied workload: operations with variables, the variables drawn per request from seeded Zipf mixes over the
 * catalog (page sizes, coin ids, quote currencies, registered names), and the check of every answer against the
 * reference variant's answer for the same body. Beside it the identical-body workload (`QUERIES` in config.ts) runs
 * unchanged: one body per operation from every connection.
 */
import { mulberry32 } from '../../src/demo/random.ts';
import { NAME_LABELS } from './config.ts';
import { manifest } from './serving.ts';

/**
 * The varied operations: the two (`coins(first: $n)` and the nested markets + bridge + identity query with
 * `$n`) with a quote currency and a name drawn per request, and one coin by id in a currency.
 */
export const VARIED = {
  'coins(first: $n, $currency)': `query CoinsPage($n: Int!, $currency: String!) {
  coins(first: $n) { edges { node { id symbol price(currency: $currency) volume24h(currency: $currency) changes { h24 } } } }
}`,
  'nested($n, $name)': `query Nested($n: Int!, $name: String!) {
  coins(first: $n) { edges { node { id price marketCap } } }
  bridge { coins { ticker coin { id price } } proofOfReserves { stale } }
  resolveName(name: $name, asset: "LTC") { address coin { id price } }
}`,
  'coin($id, $currency)': `query CoinIn($id: ID!, $currency: String!) {
  coin(id: $id) { id symbol name price(currency: $currency) marketCap(currency: $currency) volume24h(currency: $currency) high24h(currency: $currency) low24h(currency: $currency) changes { h24 } }
}`,
} as const;
export type VariedName = keyof typeof VARIED;

/** The safelist of every serving variant: the identical-body operations and the varied ones. */
export const safelist = (): ReadonlyMap<string, string> =>
  new Map([...manifest(), ...Object.entries(VARIED)]);

/** The seed of the draws; each run adds its round and whether it is a warm-up, so a run never replays a warm-up. */
export const SEED = Number(process.env.SEED ?? 20261121);

/**
 * Page sizes in order of popularity: the round sizes clients and UIs use first (CoinGecko's own pages are 10, 25,
 * 50, 100), then every other size up to 100. The catalog holds 80 coins, so 81–100 answer all of them.
 */
export const PAGE_SIZES: readonly number[] = (() => {
  const head = [10, 25, 50, 100, 20, 5, 1, 30, 15, 40];
  return [...head, ...Array.from({ length: 100 }, (_, i) => i + 1).filter((n) => !head.includes(n))];
})();

/** Quote currencies in order of popularity: the majors first, then the catalog's order (the `currencies` field). */
export function currencyRanks(catalog: readonly string[]): string[] {
  const head = ['usd', 'eur', 'btc', 'gbp', 'jpy', 'eth', 'krw', 'inr', 'cad', 'aud'].filter((c) =>
    catalog.includes(c),
  );
  return [...head, ...catalog.filter((c) => !head.includes(c))];
}

/** The registered names (`<label>.coin`, one LTC address each), `bench.coin` the most asked. */
export const NAMES: readonly string[] = NAME_LABELS.map((l) => `${l}.coin`);

/**
 * A Zipf draw over `items` in rank order (weight 1/rank^s, s = 1 by default): the first few items take most of the
 * draws, and every item of the long tail is still drawn now and then.
 */
export function zipf<T>(items: readonly T[], rand: () => number, s = 1): () => T {
  const cdf: number[] = [];
  let sum = 0;
  for (let k = 1; k <= items.length; k++) cdf.push((sum += 1 / k ** s));
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo] as T;
  };
}

/** What the draws pick from: coin ids by market cap (the catalog), the quote currencies ranked. */
export interface Catalog {
  coinIds: readonly string[];
  currencies: readonly string[];
}

/** The number of distinct bodies `op` can send: the product of its variables' choices. */
export function distinctBodies(op: VariedName, c: Catalog): number {
  if (op === 'nested($n, $name)') return PAGE_SIZES.length * NAMES.length;
  if (op === 'coin($id, $currency)') return c.coinIds.length * c.currencies.length;
  return PAGE_SIZES.length * c.currencies.length;
}

/** A seeded stream of request bodies of `op` (JSON: `query`, `variables`): the same seed gives the same stream. */
export function bodies(op: VariedName, c: Catalog, seed: number): () => string {
  const rand = mulberry32(seed);
  const query = VARIED[op];
  const n = zipf(PAGE_SIZES, rand);
  const currency = zipf(c.currencies, rand);
  const id = zipf(c.coinIds, rand);
  const name = zipf(NAMES, rand);
  const vars =
    op === 'nested($n, $name)'
      ? () => ({ n: n(), name: name() })
      : op === 'coin($id, $currency)'
        ? () => ({ id: id(), currency: currency() })
        : () => ({ n: n(), currency: currency() });
  return () => JSON.stringify({ query, variables: vars() });
}

/**
 * The `data` of a response as sent, without the envelope around it (our router adds `extensions` with the cost, whose
 * `remaining` moves from one response to the next; Hive sends none): answers of different variants compare by these
 * bytes. Anything but a `{"data":…}` body (errors, a refusal) is returned whole, so it matches no answer.
 */
export function dataOf(body: string): string {
  if (!body.startsWith('{"data":')) return body;
  const ext = body.lastIndexOf(',"extensions":');
  return body.slice(8, ext === -1 ? -1 : ext);
}

/**
 * The expected answers of the varied workload: body → the reference variant's `data` bytes. Bodies the reference has
 * not answered yet are collected during a run (each different answer with its count) and settled after it, so every
 * response of every run is checked against the reference's answer for its own variables without probing the whole
 * space of bodies first.
 */
export class Expected {
  private readonly known = new Map<string, string>();
  constructor(private readonly reference: (body: string) => Promise<string>) {}

  /** Probes the reference for `body` (once) and returns its `data` bytes. */
  async of(body: string): Promise<string> {
    let d = this.known.get(body);
    if (d === undefined) {
      d = dataOf(await this.reference(body));
      this.known.set(body, d);
    }
    return d;
  }

  /** One run's checker: `check` for every response, then `settle` for the number of mismatches. */
  run(): { check(body: string, response: string): void; settle(): Promise<RunCheck> } {
    let mismatches = 0;
    let example: { body: string; got: string; want: string } | null = null;
    const pending = new Map<string, Map<string, number>>();
    const distinct = new Set<string>();
    return {
      check: (body, response) => {
        distinct.add(body);
        const got = dataOf(response);
        const want = this.known.get(body);
        if (want !== undefined) {
          if (got !== want) {
            mismatches++;
            example ??= { body, got, want };
          }
          return;
        }
        let answers = pending.get(body);
        if (!answers) pending.set(body, (answers = new Map()));
        answers.set(got, (answers.get(got) ?? 0) + 1);
      },
      settle: async () => {
        // A few probes at a time: the reference serves them after the measured run.
        const todo = [...pending];
        const worker = async () => {
          for (let next = todo.pop(); next; next = todo.pop()) {
            const [body, answers] = next;
            const want = await this.of(body);
            for (const [got, count] of answers)
              if (got !== want) {
                mismatches += count;
                example ??= { body, got, want };
              }
          }
        };
        await Promise.all(Array.from({ length: 4 }, worker));
        return { mismatches, distinct: distinct.size, example };
      },
    };
  }
}

/** What checking one run found. */
export interface RunCheck {
  mismatches: number;
  /** Distinct bodies the run sent. */
  distinct: number;
  /** The first mismatch: the body sent, the `data` received and the reference's. */
  example: { body: string; got: string; want: string } | null;
}

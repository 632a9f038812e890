/**
 * The kit's API side: `resolve`, `price` and `subscribePrices` run the kit's persisted documents on the router
 * (docs/graph.md) through the transport (`http.ts`, `live.ts`). The wallet side is `wallet.ts`.
 */
import { KitPriceDocument } from './generated/graphql.ts';
import type { TransportOptions } from './http.ts';
import { runPersisted } from './http.ts';
import { subscribeLive } from './live.ts';
import { checkName, checkTicker, invalid, positive, stringList } from './options.ts';
import { pool } from './pool.ts';
import { resolveMany, resolveOne } from './resolve.ts';
import type { KitTicker } from './tickers.ts';
import type {
  CallOptions,
  LivePrices,
  NameQuery,
  PriceResult,
  Resolution,
  ResolutionItem,
  SubscribeOptions,
} from './types.ts';

/** Ids per `KitPrice` call (the router prices a list by its page size: 100 keeps a keyless call affordable). */
export const PRICE_IDS_PER_CALL = 100;
/** Coins one `subscribePrices` may ask for (a free key's cap per stream: docs/plans-and-limits.md). */
export const LIVE_IDS_MAX = 100;
/** `KitPrice` calls in flight at once. */
const PRICE_CONCURRENCY = 4;

/** The API calls of one kit instance, each checking its arguments before anything is sent. */
export class ApiSide {
  readonly #transport: TransportOptions;

  constructor(transport: TransportOptions) {
    this.#transport = transport;
  }

  async resolve<T extends KitTicker>(
    name: string,
    ticker: T,
    o: CallOptions | undefined,
  ): Promise<Resolution<T>> {
    checkName(name);
    checkTicker(ticker);
    return resolveOne(this.#transport, name, ticker, o);
  }

  async resolveMany<T extends KitTicker>(
    pairs: readonly NameQuery<T>[],
    o: CallOptions | undefined,
  ): Promise<ResolutionItem<T>[]> {
    if (!Array.isArray(pairs))
      throw invalid('resolve takes a name and a ticker, or an array of { name, ticker }');
    pairs.forEach((p: unknown, i) => {
      if (typeof p !== 'object' || p === null)
        throw invalid(`resolve: item ${i} must be { name, ticker }, got ${JSON.stringify(p)}`);
      checkName((p as NameQuery<T>).name, `item ${i}: `);
      checkTicker((p as NameQuery<T>).ticker);
    });
    return pairs.length === 0 ? [] : resolveMany(this.#transport, pairs, o);
  }

  async price<I extends string, V extends string>(
    ids: readonly I[],
    vsCurrencies: readonly V[],
    o: CallOptions | undefined,
  ): Promise<PriceResult<I, V>> {
    const idList = stringList(ids, 'ids') as I[];
    const vsList = stringList(vsCurrencies, 'vsCurrencies') as V[];
    const chunks: I[][] = [];
    for (let i = 0; i < idList.length; i += PRICE_IDS_PER_CALL)
      chunks.push(idList.slice(i, i + PRICE_IDS_PER_CALL));
    const calls = vsList.flatMap((currency) =>
      chunks.map((chunk) => async () => {
        const data = await runPersisted(
          this.#transport,
          KitPriceDocument,
          { ids: chunk, currency, first: chunk.length },
          o?.signal,
        );
        return { currency, edges: data.coins.edges };
      }),
    );
    const answers = await pool(calls, PRICE_CONCURRENCY);
    const prices = {} as { [K in I]: { [C in V]: number | null } };
    for (const id of idList) {
      const row = {} as { [C in V]: number | null };
      for (const vs of vsList) row[vs] = null;
      prices[id] = row;
    }
    const found = new Set<string>();
    for (const { currency, edges } of answers) {
      for (const { node } of edges) {
        const row = (prices as Record<string, Record<string, number | null>>)[node.id];
        if (!row) continue; // not asked for (the API answers only requested ids)
        found.add(node.id);
        row[currency] = typeof node.price === 'number' && Number.isFinite(node.price) ? node.price : null;
      }
    }
    return { prices, missing: idList.filter((id) => !found.has(id)) };
  }

  subscribePrices<I extends string>(
    ids: readonly I[],
    currency: string,
    onUpdate: (update: LivePrices<I>) => void,
    o: SubscribeOptions | undefined,
  ): () => void {
    const idList = stringList(ids, 'ids') as I[];
    if (idList.length > LIVE_IDS_MAX)
      throw invalid(`subscribePrices takes at most ${LIVE_IDS_MAX} ids; subscribe in several parts`);
    if (typeof currency !== 'string' || !/^[a-z0-9]{2,10}$/i.test(currency))
      throw invalid(
        `currency must be a code of the API's currencies such as usd, got ${JSON.stringify(currency)}`,
      );
    if (typeof onUpdate !== 'function') throw invalid('onUpdate must be a function');
    const opts = o ?? {};
    positive(opts.minRetryMs, 0, 'minRetryMs', 1);
    positive(opts.maxRetryMs, 0, 'maxRetryMs', 1);
    return subscribeLive(this.#transport, idList, currency.toLowerCase(), onUpdate, opts);
  }
}

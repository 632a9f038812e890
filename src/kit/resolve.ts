/**
 * The kit's `resolve`: one name (`KitResolveName`, the graph's `nameResolution`) or a list of them (`KitResolveNames`,
 * the graph's `resolveNames`, 100 pairs per request, at most 4 requests in flight). Each answer is a discriminated
 * union on `status`; in a list, a malformed pair is its own `invalid` item rather than the failure of the list.
 */
import { kitError } from './errors.ts';
import { KitResolveNameDocument, KitResolveNamesDocument } from './generated/graphql.ts';
import type { KitResolveNamesQuery } from './generated/graphql.ts';
import type { TransportOptions } from './http.ts';
import { runPersisted, runPersistedPartial } from './http.ts';
import { pool } from './pool.ts';
import type { KitTicker } from './tickers.ts';
import type { CallOptions, NameQuery, Resolution, ResolutionItem } from './types.ts';

/** Pairs per `KitResolveNames` request: the API's limit of `resolveNames`. */
export const RESOLVE_NAMES_PER_CALL = 100;
const RESOLVE_CONCURRENCY = 4;

type Member = KitResolveNamesQuery['resolveNames'][number];

/** One outcome of `nameResolution` / `resolveNames` as the kit reports it; an unknown member is BAD_RESPONSE. */
function fromMember<T extends KitTicker>(r: Member | undefined, ticker: T, field: string): Resolution<T> {
  switch (r?.__typename) {
    case 'NameResolution':
      return { status: 'found', name: r.name, ticker, address: r.address, updatedAt: r.updatedAt };
    case 'NameNotFound':
      return { status: 'name-not-found', name: r.name, ticker };
    case 'AddressNotLinked':
      return { status: 'address-not-linked', name: r.name, ticker };
    default: {
      // null without an error, or a member this kit does not know (a newer API): not an answer it can give.
      const got = (r as { __typename?: unknown } | null | undefined)?.__typename ?? null;
      throw kitError(
        'BAD_RESPONSE',
        `the API answered ${field} with ${String(got)}, which this kit does not know: update the kit`,
      );
    }
  }
}

/** The address `name` has linked for `ticker` (a malformed name is the API's error as a KitError). */
export async function resolveOne<T extends KitTicker>(
  t: TransportOptions,
  name: string,
  ticker: T,
  o: CallOptions | undefined,
): Promise<Resolution<T>> {
  const data = await runPersisted(t, KitResolveNameDocument, { name, asset: ticker }, o?.signal);
  return fromMember(data.nameResolution ?? undefined, ticker, 'nameResolution');
}

/** Every pair's outcome, in the order given; pairs already checked by the caller (names non-empty, tickers known). */
export async function resolveMany<T extends KitTicker>(
  t: TransportOptions,
  pairs: readonly NameQuery<T>[],
  o: CallOptions | undefined,
): Promise<ResolutionItem<T>[]> {
  const chunks: NameQuery<T>[][] = [];
  for (let i = 0; i < pairs.length; i += RESOLVE_NAMES_PER_CALL)
    chunks.push(pairs.slice(i, i + RESOLVE_NAMES_PER_CALL));
  const answers = await pool(
    chunks.map((chunk) => async (): Promise<ResolutionItem<T>[]> => {
      const names = chunk.map((p) => ({ name: p.name, asset: p.ticker }));
      const { data, errors } = await runPersistedPartial(t, KitResolveNamesDocument, { names }, o?.signal);
      if (!Array.isArray(data.resolveNames) || data.resolveNames.length !== chunk.length)
        throw kitError('BAD_RESPONSE', 'the API answered resolveNames with a list of another length');
      return chunk.map((p, i): ResolutionItem<T> => {
        const item = data.resolveNames[i];
        if (item !== null && item !== undefined) return fromMember(item, p.ticker, 'resolveNames');
        const e = errors.find((x) => x.path[0] === 'resolveNames' && x.path[1] === i);
        if (!e) throw kitError('BAD_RESPONSE', `the API answered resolveNames[${i}] with null and no error`);
        return { status: 'invalid', name: p.name, ticker: p.ticker, code: e.code, message: e.message };
      });
    }),
    RESOLVE_CONCURRENCY,
  );
  return answers.flat();
}

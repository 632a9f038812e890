/// <reference lib="dom" />
/**
 * The dapp's page: a price board and the market's headline figures from the graph, and one price from the REST
 * price API, all with the app's API key (`x-sp-api-key`). It sends only ids: the generated documents
 * (`generated/graphql.ts`, client preset in `replaceDocumentWithHash` mode) hold nothing but `__meta__.hash`, and no
 * query text is in the bundle.
 *
 * - The price board by GET (`/graphql?documentId=…&variables=…`): a URL a CDN can cache (docs/apps.md).
 * - The headline figures by POST (`{ documentId, variables }`).
 *
 * Configured by the page's URL: `?api=<platform URL>` (default the `coinwallet-api` <meta>), `?key=<API key>`.
 * Each panel shows its outcome in `data-status` (the HTTP status) and `data-code` (`ok`, or the error code the
 * platform answered: `PERSISTED_QUERY_NOT_IN_LIST`, `ORIGIN_NOT_ALLOWED`, …).
 */
import { DappMarketDocument, DappPricesDocument } from '../generated/graphql.ts';
import type {
  DappMarketQuery,
  DappMarketQueryVariables,
  DappPricesQuery,
  DappPricesQueryVariables,
} from '../generated/graphql.ts';

/** The coins of the board (CoinGecko-style ids). */
const COINS = ['litecoin', 'dogecoin', 'bitcoin'];
/** Where the platform serves the price API (`PRICE_BASE_PATH`, default `/v1/agg`). */
const PRICE_BASE = '/v1/agg';

/** A generated document in `replaceDocumentWithHash` mode: its id, typed by its result and variables. */
interface PersistedDocument<R, V> {
  readonly __meta__?: { readonly hash?: string };
  readonly __apiType?: (variables: V) => R;
}

const params = new URLSearchParams(location.search);
const api = new URL(
  params.get('api') ??
    document.querySelector<HTMLMetaElement>('meta[name="coinwallet-api"]')?.content ??
    'http://127.0.0.1:4000',
).origin;
const key = params.get('key') ?? '';
const keyed: Record<string, string> = key ? { 'x-sp-api-key': key } : {};

interface Outcome<T> {
  status: number;
  code: string;
  message: string;
  data: T | null;
}

/** The platform's error code and message from either error shape (GraphQL `errors`, REST `error`). */
function errorOf(body: unknown): { code: string; message: string } | null {
  const b = body as {
    errors?: { message?: string; extensions?: { code?: string } }[];
    error?: { code?: string; message?: string };
  } | null;
  const e = b?.errors?.[0];
  if (e) return { code: e.extensions?.code ?? 'GRAPHQL_ERROR', message: e.message ?? '' };
  if (b?.error) return { code: b.error.code ?? 'ERROR', message: b.error.message ?? '' };
  return null;
}

async function call<T>(input: string, init: RequestInit, pick: (body: unknown) => T): Promise<Outcome<T>> {
  try {
    const r = await fetch(input, init);
    const body = (await r.json().catch(() => null)) as unknown;
    const err = errorOf(body);
    if (!r.ok || err)
      return {
        status: r.status,
        code: err?.code ?? `HTTP_${r.status}`,
        message: err?.message ?? '',
        data: null,
      };
    return { status: r.status, code: 'ok', message: '', data: pick(body) };
  } catch (e) {
    // A network failure, or a response the browser hid (CORS).
    return {
      status: 0,
      code: 'NETWORK_ERROR',
      message: e instanceof Error ? e.message : String(e),
      data: null,
    };
  }
}

const idOf = <R, V>(doc: PersistedDocument<R, V>): string => {
  const id = doc.__meta__?.hash;
  if (!id) throw new Error('a generated document without its id: run the build (npm run example:apps)');
  return id;
};

/** A trusted document by GET: the id and the variables in the URL. */
function graphGet<R, V>(doc: PersistedDocument<R, V>, variables: V): Promise<Outcome<R>> {
  const url = new URL('/graphql', api);
  url.searchParams.set('documentId', idOf(doc));
  url.searchParams.set('variables', JSON.stringify(variables));
  return call(url.href, { headers: { accept: 'application/graphql-response+json', ...keyed } }, (b) => {
    return (b as { data: R }).data;
  });
}

/** A trusted document by POST. */
function graphPost<R, V>(doc: PersistedDocument<R, V>, variables: V): Promise<Outcome<R>> {
  return call(
    new URL('/graphql', api).href,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...keyed },
      body: JSON.stringify({ documentId: idOf(doc), variables }),
    },
    (b) => (b as { data: R }).data,
  );
}

function show(panel: string, o: Outcome<unknown>, render: () => string): void {
  const el = document.getElementById(panel);
  if (!el) return;
  el.dataset['status'] = String(o.status);
  el.dataset['code'] = o.code;
  el.querySelector('.result')!.textContent =
    o.code === 'ok' ? render() : `${o.status || 'no answer'} ${o.code}${o.message ? `: ${o.message}` : ''}`;
}

const money = (v: number | null | undefined, currency = 'USD'): string =>
  v === null || v === undefined
    ? 'no quote'
    : new Intl.NumberFormat('en', { style: 'currency', currency, maximumSignificantDigits: 6 }).format(v);

async function main(): Promise<void> {
  document.getElementById('platform')!.textContent = `${api}${key ? '' : ' (keyless: add ?key=<API key>)'}`;
  const pricesDoc = DappPricesDocument as PersistedDocument<DappPricesQuery, DappPricesQueryVariables>;
  const marketDoc = DappMarketDocument as PersistedDocument<DappMarketQuery, DappMarketQueryVariables>;
  const [prices, market, rest] = await Promise.all([
    graphGet(pricesDoc, { ids: COINS, currency: 'usd' }),
    graphPost(marketDoc, { currency: 'usd' }),
    call(
      `${api}${PRICE_BASE}/simple/price?ids=litecoin&vs_currencies=usd`,
      { headers: keyed },
      (b) => (b as { litecoin?: { usd?: number } }).litecoin?.usd ?? null,
    ),
  ]);
  show('prices', prices, () =>
    (prices.data?.coins.edges ?? [])
      .map(
        ({ node }) => `${node.symbol.toUpperCase()} ${money(node.price)} (${node.changes.h24 ?? '–'} % 24 h)`,
      )
      .join('\n'),
  );
  show('market', market, () =>
    market.data
      ? `${market.data.global.activeCryptocurrencies} coins, market cap ${money(market.data.global.totalMarketCap)}`
      : '',
  );
  show('rest', rest, () => `LTC ${money(rest.data)} (REST ${PRICE_BASE}/simple/price)`);
  document.body.dataset['ready'] = 'true';
}

void main();

/**
 * The price API's OpenAPI document against the running app: the document is OpenAPI 3.1 and lists every route, and
 * real responses (successes and errors) validate against the schema it gives for their path and status.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMarket } from '../support/price-app.ts';
import { relink } from './openapi-server.ts';
import type { TestMarket } from '../support/price-app.ts';

const BASE = '/v1/agg';

const PATHS = [
  '/ping',
  '/simple/price',
  '/simple/supported_vs_currencies',
  '/coins/markets',
  '/coins/list',
  '/coins/{id}',
  '/coins/{id}/market_chart',
  '/coins/{id}/market_chart/range',
  '/coins/{id}/ohlc',
  '/coins/categories',
  '/coins/categories/list',
  '/global',
  '/search',
  '/search/trending',
  '/coins/{id}/tickers',
  '/coins/{id}/history',
  '/coins/{id}/ohlc/range',
  '/coins/top_gainers_losers',
  '/coins/list/new',
  '/exchanges',
  '/exchanges/list',
  '/exchanges/{id}',
  '/exchanges/{id}/tickers',
  '/exchange_rates',
  '/global/market_cap_chart',
];

/** Real requests: [documented path, request path and query, expected status]. */
const CASES: [string, string, number][] = [
  ['/ping', '/ping', 200],
  [
    '/simple/price',
    '/simple/price?ids=litecoin,bitcoin,junkcoin&vs_currencies=usd,eur,btc&include_market_cap=true&include_24hr_vol=true&include_24hr_change=true&include_last_updated_at=true',
    200,
  ],
  ['/simple/price', '/simple/price?symbols=ltc,doge&vs_currencies=usd&precision=2', 200],
  ['/simple/price', '/simple/price?ids=litecoin', 400],
  ['/simple/supported_vs_currencies', '/simple/supported_vs_currencies', 200],
  [
    '/coins/markets',
    '/coins/markets?vs_currency=usd&sparkline=true&price_change_percentage=1h,24h,7d,14d,30d,200d,1y',
    200,
  ],
  [
    '/coins/markets',
    '/coins/markets?vs_currency=eur&order=volume_desc&per_page=5&page=2&precision=full',
    200,
  ],
  ['/coins/markets', '/coins/markets?vs_currency=zzz', 400],
  ['/coins/markets', '/coins/markets?vs_currency=usd&per_page=0', 400],
  ['/coins/list', '/coins/list', 200],
  ['/coins/list', '/coins/list?include_platform=true', 200],
  ['/coins/{id}', '/coins/litecoin', 200],
  ['/coins/{id}', '/coins/junkcoin?sparkline=true&tickers=false', 200],
  ['/coins/{id}', '/coins/no-such-coin', 404],
  ['/coins/{id}', '/coins/Bad%20Id', 400],
  ['/coins/{id}/market_chart', '/coins/litecoin/market_chart?vs_currency=usd&days=1', 200],
  ['/coins/{id}/market_chart', '/coins/junkcoin/market_chart?vs_currency=eur&days=max&precision=4', 200],
  ['/coins/{id}/market_chart', '/coins/litecoin/market_chart?vs_currency=usd', 400],
  ['/coins/{id}/market_chart', '/coins/no-such-coin/market_chart?vs_currency=usd&days=1', 404],
  [
    '/coins/{id}/market_chart/range',
    '/coins/litecoin/market_chart/range?vs_currency=usd&from=2026-11-20&to=2026-11-21T06:00',
    200,
  ],
  [
    '/coins/{id}/market_chart/range',
    '/coins/litecoin/market_chart/range?vs_currency=usd&from=2026-11-21&to=2026-11-20',
    400,
  ],
  ['/coins/{id}/ohlc', '/coins/litecoin/ohlc?vs_currency=usd&days=7', 200],
  ['/coins/{id}/ohlc', '/coins/litecoin/ohlc?vs_currency=usd&days=1&interval=hourly', 400],
  ['/coins/categories', '/coins/categories', 200],
  ['/coins/categories', '/coins/categories?order=name_asc', 200],
  ['/coins/categories/list', '/coins/categories/list', 200],
  ['/global', '/global', 200],
  ['/search', '/search?query=lite', 200],
  ['/search', '/search?query=zzzzzz', 200],
  ['/search/trending', '/search/trending', 200],
  ['/coins/{id}/tickers', '/coins/litecoin/tickers?order=volume_desc&depth=true', 200],
  ['/coins/{id}/tickers', '/coins/litecoin/tickers?exchange_ids=demo-cex-alpha&page=1', 200],
  ['/coins/{id}/tickers', '/coins/litecoin/tickers?order=best', 400],
  ['/coins/{id}/tickers', '/coins/no-such-coin/tickers', 404],
  ['/coins/{id}/history', '/coins/litecoin/history?date=20-11-2026', 200],
  ['/coins/{id}/history', '/coins/litecoin/history?date=2026-06-01&localization=false', 200],
  ['/coins/{id}/history', '/coins/litecoin/history?date=31-02-2026', 400],
  ['/coins/{id}/history', '/coins/no-such-coin/history?date=20-11-2026', 404],
  [
    '/coins/{id}/ohlc/range',
    '/coins/litecoin/ohlc/range?vs_currency=usd&from=2026-11-20&to=2026-11-21&interval=hourly&precision=2',
    200,
  ],
  ['/coins/{id}/ohlc/range', '/coins/litecoin/ohlc/range?vs_currency=usd&from=2026-11-20&to=2026-11-21', 400],
  [
    '/coins/{id}/ohlc/range',
    '/coins/no-such-coin/ohlc/range?vs_currency=usd&from=2026-11-20&to=2026-11-21&interval=daily',
    404,
  ],
  [
    '/coins/top_gainers_losers',
    '/coins/top_gainers_losers?vs_currency=eur&duration=1h&top_coins=all&price_change_percentage=24h,7d',
    200,
  ],
  ['/coins/top_gainers_losers', '/coins/top_gainers_losers?vs_currency=usd&top_coins=2', 400],
  ['/coins/list/new', '/coins/list/new', 200],
  ['/exchanges', '/exchanges?per_page=3&page=2', 200],
  ['/exchanges', '/exchanges?per_page=0', 400],
  ['/exchanges/list', '/exchanges/list?status=active', 200],
  ['/exchanges/{id}', '/exchanges/demo-cex-alpha?dex_pair_format=symbol', 200],
  ['/exchanges/{id}', '/exchanges/no-such-venue', 404],
  ['/exchanges/{id}', '/exchanges/Bad%20Id', 400],
  [
    '/exchanges/{id}/tickers',
    '/exchanges/demo-dex-aurora/tickers?coin_ids=pepecoin,dogecoin&order=base_target&include_exchange_logo=true',
    200,
  ],
  ['/exchanges/{id}/tickers', '/exchanges/no-such-venue/tickers', 404],
  ['/exchange_rates', '/exchange_rates', 200],
  ['/global/market_cap_chart', '/global/market_cap_chart?days=1&vs_currency=eur', 200],
  ['/global/market_cap_chart', '/global/market_cap_chart?days=0', 400],
];

interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Doc {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, { get?: Operation }>;
  components?: { schemas?: Record<string, unknown> };
}

let m: TestMarket;
let doc: Doc;
let ajv: Ajv2020;

beforeAll(async () => {
  m = await createTestMarket({ days: 3 });
  const r = await m.app.inject({ method: 'GET', url: `${BASE}/openapi.json` });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  doc = r.json();
  // Strict, so a misspelled keyword in a route schema fails here; OpenAPI's own schema keywords are allowed.
  ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  formats.default(ajv); // a CommonJS module: under NodeNext its default import is module.exports
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  ajv.addSchema({ $id: 'components', $defs: relink(doc.components?.schemas ?? {}) });
}, 120_000);
afterAll(async () => {
  await m?.close();
});

const validators = new Map<string, ValidateFunction>();
function validator(path: string, status: number): ValidateFunction {
  const key = `${path} ${status}`;
  const cached = validators.get(key);
  if (cached) return cached;
  const res = doc.paths[path]?.get?.responses[String(status)];
  const schema = res?.content?.['application/json']?.schema;
  if (schema === undefined)
    throw new Error(`the document has no application/json schema for GET ${path} → ${status}`);
  const v = ajv.compile(relink(schema) as object);
  validators.set(key, v);
  return v;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 served under the prefix, with every route and not itself', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.servers?.[0]?.url).toBe(BASE);
    expect(Object.keys(doc.paths).sort()).toEqual([...PATHS].sort());
    expect(doc.paths['/openapi.json']).toBeUndefined();
  });

  it('gives every operation an id, a 200 schema and the shared error responses', () => {
    const ids = new Set<string>();
    for (const path of PATHS) {
      const op = doc.paths[path]?.get;
      expect(op, path).toBeDefined();
      expect(op?.operationId, path).toMatch(/^\w+$/);
      ids.add(op?.operationId ?? '');
      for (const status of [200, 400, 429, 503])
        expect(() => validator(path, status), `${path} ${status}`).not.toThrow();
      if (path.includes('{id}')) expect(() => validator(path, 404), `${path} 404`).not.toThrow();
    }
    expect(ids.size).toBe(PATHS.length);
  });

  it('documents every query parameter the requests below use, and the id path parameter', () => {
    for (const [path, url] of CASES) {
      const params = doc.paths[path]?.get?.parameters ?? [];
      const query = new URLSearchParams(url.split('?')[1] ?? '');
      for (const name of query.keys()) {
        expect(
          params.some((p) => p.in === 'query' && p.name === name),
          `${path} ?${name}`,
        ).toBe(true);
      }
      if (path.includes('{id}'))
        expect(
          params.some((p) => p.in === 'path' && p.name === 'id'),
          path,
        ).toBe(true);
    }
  });
});

describe('responses match the document', () => {
  it('the schemas are not vacuous: bodies of the wrong shape fail', () => {
    expect(validator('/ping', 200)({})).toBe(false);
    expect(validator('/coins/{id}', 400)({ error: 'coin not found' })).toBe(false);
    expect(validator('/coins/{id}/market_chart', 200)({ prices: [[1, 2]], market_caps: [] })).toBe(false);
    expect(
      validator('/coins/{id}/market_chart', 200)({ prices: [[1, '2']], market_caps: [], total_volumes: [] }),
    ).toBe(false);
    expect(validator('/coins/{id}/ohlc', 200)([[1, 2, 3, 4]])).toBe(false);
    expect(validator('/coins/{id}/ohlc', 200)([[1, 2, 3, 4, 5]])).toBe(true);
    expect(
      validator(
        '/exchange_rates',
        200,
      )({ rates: { usd: { name: 'US Dollar', unit: '$', value: '1', type: 'fiat' } } }),
    ).toBe(false);
    expect(validator('/coins/{id}/tickers', 200)({ name: 'Litecoin', tickers: [{ base: 'LTC' }] })).toBe(
      false,
    );
    expect(validator('/coins/list/new', 200)([{ id: 'x', symbol: 'x', name: 'X', activated_at: 1.5 }])).toBe(
      false,
    );
  });

  it.each(CASES)('%s: GET %s → %i', async (path, url, status) => {
    const r = await m.app.inject({ method: 'GET', url: `${BASE}${url}` });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(status);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const validate = validator(path, status);
    const body: unknown = r.json();
    const ok = validate(body);
    expect(ok ? [] : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n').slice(0, 10)).toEqual(
      [],
    );
  });
});

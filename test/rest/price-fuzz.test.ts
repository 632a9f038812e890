/**
 * Fuzz test of the price API: a seeded generator throws thousands of hostile requests at every endpoint through
 * `app.inject` (no ports, so no HTTP parser limits either: the app itself must cope) and checks that none is
 * answered with a 5xx, that every 4xx carries the JSON error body, and that the app still serves afterwards.
 * Reproduce a run with `FUZZ_SEED=<seed> FUZZ_N=<requests> npx vitest run test/rest/price-fuzz.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMarket } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';
import { mulberry32 as prng } from '../../src/demo/random.ts';

const BASE = '/v1/agg';
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const N = Number(process.env.FUZZ_N ?? 3000);

const rand = prng(SEED);
const chance = (p: number): boolean => rand() < p;
const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

/** Hostile values, written as they appear in a URL (some already percent-encoded, some raw). */
const HOSTILE = [
  '',
  ' ',
  '%20',
  '+',
  '0',
  '-0',
  '-1',
  '1e9',
  '1e308',
  '-1e308',
  '99999999999999999999999999',
  '0.000000001',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x1F',
  '1.5',
  '.5',
  '5.',
  '1,2,3',
  ',,,',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  '%5B%5D',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '..%2F..%2Fetc%2Fpasswd',
  '../../etc/passwd',
  '..%252F..%252F',
  '%2e%2e%2f',
  '%00',
  'a%00b',
  '%0A%0D',
  '%0d%0aSet-Cookie:x=1',
  '%1F',
  '%7F',
  '%FF',
  '%C0%AF',
  '%E2%80%AE',
  '%F0%9F%9A%80',
  '%ED%A0%80',
  '%',
  '%%',
  '%G1',
  '%u0041',
  "'%20OR%201=1%20--",
  '%22%3B%20DROP%20TABLE%20price_bars%3B%20--',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '%24%7B7*7%7D',
  '%7B%7B7*7%7D%7D',
  'ü',
  'Ω',
  '币',
  '🚀',
  'e\u0301',
  '%EF%BB%BF',
  'USD',
  'Max',
  'MAX',
  'full%00',
  '2024-02-30',
  '2024-13-01',
  '1969-12-31',
  '9999-12-31',
  '275760-09-13',
  '-271821-04-20',
  '1700000000000',
];

/** Plausible values per parameter, so requests also reach the code behind the first check. */
const VALID: Record<string, readonly string[]> = {
  ids: ['litecoin', 'bitcoin,ethereum', 'litecoin,dogecoin,no-such-coin', 'LITECOIN'],
  names: ['Litecoin', 'bitcoin,Dogecoin'],
  symbols: ['ltc', 'btc,eth,doge', 'LTC'],
  include_tokens: ['top', 'all'],
  vs_currency: ['usd', 'eur', 'btc', 'sats', 'jpy', 'xau', 'EUR'],
  vs_currencies: ['usd', 'usd,eur', 'btc,eth,xau,sats', 'usd,usd'],
  include_market_cap: ['true', 'false'],
  include_24hr_vol: ['true', 'false'],
  include_24hr_change: ['true', 'false'],
  include_last_updated_at: ['true', 'false'],
  precision: ['full', '0', '2', '18'],
  category: ['layer-1', 'meme-token', 'no-such-category'],
  order: [
    'market_cap_desc',
    'market_cap_asc',
    'volume_desc',
    'id_asc',
    'name_asc',
    'gainers',
    'trust_score_desc',
    'base_target',
  ],
  per_page: ['1', '10', '250', '251'],
  page: ['1', '2', '1000'],
  sparkline: ['true', 'false'],
  price_change_percentage: ['1h', '1h,24h,7d,14d,30d,200d,1y', '2h'],
  locale: ['en', 'de', 'xx'],
  include_platform: ['true', 'false'],
  status: ['active', 'inactive'],
  localization: ['true', 'false'],
  tickers: ['true', 'false'],
  market_data: ['true', 'false'],
  community_data: ['true', 'false'],
  developer_data: ['true', 'false'],
  days: ['1', '2', '3', '7', '30', '0.5', '96', '365', 'max', '3650'],
  interval: ['', '5m', 'hourly', 'daily'],
  from: ['1763000000', '2026-11-01', '2026-11-20T06:00', '2009-01-01', '1230768000.5'],
  to: ['1763700000', '2026-11-21', '2030-01-01T00:00:00Z', '2026-11-21T12:00:00%2B02:00'],
  query: ['lite', 'btc', 'a', 'coin'],
  show_max: ['coins', 'coins,nfts,categories'],
  exchange_ids: ['demo-cex-alpha', 'demo-cex-alpha,demo-dex-cove', 'no-such-venue', 'Bad!'],
  coin_ids: ['litecoin', 'litecoin,bitcoin', 'no-such-coin'],
  depth: ['true', 'false'],
  include_exchange_logo: ['true', 'false'],
  dex_pair_format: ['contract_address', 'symbol', 'x'],
  date: ['20-11-2026', '2026-11-20', '01-01-2009', '31-02-2026', '21-11-2027', '1-1-2026'],
  duration: ['1h', '24h', '7d', '1y', '2d'],
  top_coins: ['300', '1000', 'all', '10'],
  x_sp_api_key: ['nope'],
};

const COMMON = ['precision'];
const ENDPOINTS: { path: string; params: string[] }[] = [
  { path: '/ping', params: [] },
  {
    path: '/simple/price',
    params: [
      'ids',
      'names',
      'symbols',
      'include_tokens',
      'vs_currencies',
      'include_market_cap',
      'include_24hr_vol',
      'include_24hr_change',
      'include_last_updated_at',
      ...COMMON,
    ],
  },
  { path: '/simple/supported_vs_currencies', params: [] },
  {
    path: '/coins/markets',
    params: [
      'vs_currency',
      'ids',
      'names',
      'symbols',
      'include_tokens',
      'category',
      'order',
      'per_page',
      'page',
      'sparkline',
      'price_change_percentage',
      'locale',
      ...COMMON,
    ],
  },
  { path: '/coins/list', params: ['include_platform', 'status'] },
  {
    path: '/coins/{id}',
    params: ['localization', 'tickers', 'market_data', 'community_data', 'developer_data', 'sparkline'],
  },
  { path: '/coins/{id}/market_chart', params: ['vs_currency', 'days', 'interval', ...COMMON] },
  { path: '/coins/{id}/market_chart/range', params: ['vs_currency', 'from', 'to', 'interval', ...COMMON] },
  { path: '/coins/{id}/ohlc', params: ['vs_currency', 'days', 'interval', ...COMMON] },
  { path: '/coins/categories', params: ['order'] },
  { path: '/coins/categories/list', params: [] },
  { path: '/global', params: [] },
  { path: '/search', params: ['query'] },
  { path: '/search/trending', params: ['show_max'] },
  { path: '/openapi.json', params: [] },
  {
    path: '/coins/{id}/tickers',
    params: ['exchange_ids', 'order', 'page', 'depth', 'include_exchange_logo', 'dex_pair_format'],
  },
  { path: '/coins/{id}/history', params: ['date', 'localization'] },
  { path: '/coins/{id}/ohlc/range', params: ['vs_currency', 'from', 'to', 'interval', ...COMMON] },
  {
    path: '/coins/top_gainers_losers',
    params: ['vs_currency', 'duration', 'top_coins', 'price_change_percentage', ...COMMON],
  },
  { path: '/coins/list/new', params: [] },
  { path: '/exchanges', params: ['per_page', 'page'] },
  { path: '/exchanges/list', params: ['status'] },
  { path: '/exchanges/{venue}', params: ['dex_pair_format'] },
  {
    path: '/exchanges/{venue}/tickers',
    params: ['coin_ids', 'order', 'page', 'depth', 'include_exchange_logo'],
  },
  { path: '/exchange_rates', params: [] },
  { path: '/global/market_cap_chart', params: ['days', 'vs_currency'] },
];
const VENUES = ['demo-cex-alpha', 'demo-dex-cove', 'no-such-venue', 'BAD', '__proto__'];
const IDS = ['litecoin', 'dogecoin', 'bitcoin', 'junkcoin', 'no-such-coin'];
const SEGMENTS = [
  'coins',
  'simple',
  'price',
  'market_chart',
  'range',
  'ohlc',
  'litecoin',
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '',
  'openapi.json',
  'x'.repeat(300),
  '🚀',
  '%FF',
  'global',
  'search',
  'trending',
  'categories',
  'list',
  'exchanges',
  'tickers',
  'history',
  'new',
  'exchange_rates',
];

/** Random percent-encoded bytes (including invalid UTF-8 and control bytes). */
function bytes(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += `%${int(0, 255).toString(16).padStart(2, '0').toUpperCase()}`;
  return s;
}

/** Random printable/unicode text, percent-encoded when `encode`. */
function text(n: number, encode: boolean): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const cp = chance(0.7) ? int(0x20, 0x7e) : chance(0.5) ? int(0xa0, 0xd7ff) : int(0x1f300, 0x1f6ff);
    s += String.fromCodePoint(cp);
  }
  return encode ? encodeURIComponent(s) : s.replace(/[#?&=%\s]/g, '_');
}

function value(name: string): string {
  const r = rand();
  if (r < 0.45) return pick(VALID[name] ?? ['1']);
  if (r < 0.75) return pick(HOSTILE);
  if (r < 0.85) return bytes(int(1, 12));
  if (r < 0.95) return text(int(1, 30), chance(0.7));
  return pick(VALID[name] ?? ['x']) + pick(HOSTILE);
}

function idList(n: number): string {
  return Array.from({ length: n }, (_, i) => (chance(0.1) ? pick(IDS) : `coin-${i}`)).join(',');
}

type Req = {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';
  url: string;
  headers: Record<string, string>;
  payload?: string;
};

/** One random request: mostly realistic endpoints with hostile values, plus the odd oversized or off-route one. */
function request(): Req {
  const ep = pick(ENDPOINTS);
  const id = chance(0.7) ? pick(IDS) : value('id');
  const path = ep.path.replace('{id}', id).replace('{venue}', chance(0.7) ? pick(VENUES) : value('id'));
  const q: string[] = [];
  for (const p of ep.params) {
    if (!chance(0.6)) continue;
    q.push(`${p}=${value(p)}`);
    if (chance(0.05)) q.push(`${p}=${value(p)}`); // repeated parameter
  }
  if (chance(0.1)) q.push(`${text(int(1, 10), true)}=${value('x')}`); // unknown parameter
  if (chance(0.03)) q.push(`__proto__[polluted]=1`, `constructor[prototype][polluted]=1`);
  if (chance(0.03)) q.push(`${chance(0.5) ? 'ids' : 'vs_currencies'}=${idList(int(500, 5000))}`); // thousands of items
  if (chance(0.02)) q.push(`${pick([...ep.params, 'x'])}=${'a'.repeat(20_000)}`); // ~20 kB query string
  if (chance(0.02)) q.push(...Array.from({ length: 2000 }, (_, i) => `p${i}=${i}`)); // many parameters
  let url = `${BASE}${path}${q.length || chance(0.1) ? `?${q.join('&')}` : ''}`;
  if (chance(0.05)) url = `${BASE}/${Array.from({ length: int(1, 6) }, () => pick(SEGMENTS)).join('/')}`;
  if (chance(0.02)) url = `${url}${pick(['/', '//', '/.', '#frag', '?', '&', ';x=1'])}`;
  const headers: Record<string, string> = {};
  if (chance(0.1))
    headers['accept-encoding'] = pick([
      'gzip',
      'br',
      'deflate, br;q=0',
      '*',
      'identity;q=0',
      'x'.repeat(500),
    ]);
  if (chance(0.05)) headers['if-none-match'] = pick(['*', '"x"', 'W/"abc"', ',,,', '"'.repeat(200)]);
  const r = rand();
  const method =
    r < 0.8 ? 'GET' : r < 0.88 ? 'HEAD' : pick(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const);
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    headers['content-type'] = pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']);
    return {
      method,
      url,
      headers,
      payload: pick(['{', '{}', '{"__proto__":{"polluted":1}}', text(50, false)]),
    };
  }
  if (method === 'OPTIONS' && chance(0.5)) {
    headers.origin = 'https://example.org';
    headers['access-control-request-method'] = 'GET';
  }
  return { method, url, headers };
}

let m: TestMarket;
beforeAll(async () => {
  m = await createTestMarket({ days: 3 });
}, 120_000);
afterAll(async () => {
  await m?.close();
});

describe('price API fuzz', () => {
  it(`answers ${N} hostile requests (seed ${SEED}) without a 5xx, with JSON errors`, async () => {
    const histogram = new Map<string, number>();
    /** One example request per kind of failure ("500", "400 non-JSON", …), with how often it happened. */
    const failures = new Map<string, { n: number; example: string }>();
    const fail = (kind: string, req: Req, body: string): void => {
      const f = failures.get(kind) ?? {
        n: 0,
        example: `${req.method} ${req.url.slice(0, 160)} → ${body.slice(0, 160)}`,
      };
      f.n++;
      failures.set(kind, f);
    };
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const req = request();
      const res = await m.app.inject(req);
      const s = res.statusCode;
      let code = '';
      if (s >= 400 && req.method !== 'HEAD') {
        let body: { error?: { code?: unknown; message?: unknown } } | null = null;
        try {
          body = res.json();
        } catch {
          fail(`${s} non-JSON body`, req, res.body);
        }
        if (body) {
          code = String(body.error?.code);
          if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string') {
            fail(`${s} without {error:{code,message}}`, req, res.body);
          }
        }
      }
      if (s >= 500) fail(`${s} server error`, req, res.body);
      if (
        s === 200 &&
        req.method === 'GET' &&
        !String(res.headers['content-type']).startsWith('application/json')
      ) {
        fail('200 without a JSON content type', req, res.body);
      }
      const k = code ? `${s} ${code}` : String(s);
      histogram.set(k, (histogram.get(k) ?? 0) + 1);
    }
    const ms = performance.now() - t0;
    const rows = [...histogram]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `  ${k.padEnd(36)} ${n}`);
    console.log(`fuzz: ${N} requests in ${Math.round(ms)} ms (seed ${SEED})\n${rows.join('\n')}`);
    expect(Object.fromEntries(failures)).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const ping = await m.app.inject({ method: 'GET', url: `${BASE}/ping` });
    expect(ping.statusCode).toBe(200);
  }, 120_000);
});

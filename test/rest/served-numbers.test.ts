/**
 * The served-number rule (src/engine/served-numbers.ts) as a property of everything served: every number of every
 * price-API answer (every endpoint, every coin, several currencies) and of the graph's market fields has at most 12
 * significant digits, unless the caller asks `precision=full`. Before the rule, medians of two supply readings
 * reached clients as `19963642.939999998`.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVED_DIGITS, servedNumber } from '../../src/engine/served-numbers.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

let tm: TestMarket;
beforeAll(async () => {
  tm = await createTestMarket({ days: 30 });
}, 120_000);
afterAll(async () => {
  await tm?.close();
});

/** Every number in a JSON value, with its path. */
function numbers(v: unknown, path = '$', out: [string, number][] = []): [string, number][] {
  if (typeof v === 'number') out.push([path, v]);
  else if (Array.isArray(v)) v.forEach((x, i) => numbers(x, `${path}[${i}]`, out));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) numbers(x, `${path}.${k}`, out);
  return out;
}

/** The numbers that break the rule (more than 12 significant digits), with their paths. */
const noisy = (v: unknown): [string, number][] => numbers(v).filter(([, x]) => servedNumber(x) !== x);

async function get(url: string): Promise<unknown> {
  const r = await tm.app.inject({ method: 'GET', url: `/v1/agg${url}` });
  expect(r.statusCode, url).toBe(200);
  return r.json();
}

describe('servedNumber', () => {
  it('keeps safe integers, rounds the rest to 12 significant digits, idempotent, within 5e-12 relative', () => {
    let seed = 7;
    const rnd = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 10_000; i++) {
      const x = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20);
      const s = servedNumber(x);
      expect(servedNumber(s)).toBe(s);
      expect(Math.abs(s - x)).toBeLessThanOrEqual(Math.abs(x) * 5e-12);
      // A safe integer is an exact count or time, served whole; anything else has at most 12 digits.
      if (!Number.isSafeInteger(x)) expect(Number(s.toPrecision(SERVED_DIGITS))).toBe(s);
      else expect(s).toBe(x);
    }
    expect(servedNumber(19963642.939999998)).toBe(19963642.94);
    expect(servedNumber(0.1 + 0.2)).toBe(0.3);
    expect(servedNumber(1_795_528_223_182)).toBe(1_795_528_223_182); // a UNIX ms time stays whole
    expect(servedNumber(422919988632202200)).toBe(422919988632000000); // past 2^53 a double is no exact count
  });
});

describe('every number the price API serves', () => {
  it('follows the rule on every endpoint, for every coin and several currencies', async () => {
    const snap = tm.market.snapshot;
    if (!snap) throw new Error('no snapshot');
    const ids = [...snap.markets.keys()];
    const urls = [
      `/simple/price?ids=${ids.join(',')}&vs_currencies=usd,eur,jpy,btc,sats&include_market_cap=true&include_24hr_vol=true&include_24hr_change=true`,
      ...[1, 2].map(
        (page) =>
          `/coins/markets?vs_currency=eur&per_page=50&page=${page}&sparkline=true&price_change_percentage=1h,24h,7d,14d,30d,200d,1y`,
      ),
      '/global',
      '/coins/categories',
      '/search/trending',
      '/search?query=coin',
      ...ids.map((id) => `/coins/${id}?tickers=true`),
      ...ids
        .slice(0, 10)
        .flatMap((id) => [
          `/coins/${id}/market_chart?vs_currency=eur&days=30`,
          `/coins/${id}/ohlc?vs_currency=jpy&days=30`,
        ]),
    ];
    let count = 0;
    for (const url of urls) {
      const body = await get(url);
      count += numbers(body).length;
      expect(noisy(body), url).toEqual([]);
    }
    expect(count).toBeGreaterThan(100_000); // the property held over this many served numbers
  });

  it('the supply medians that used to leak noise are served rounded, and exactly with precision=full', async () => {
    const snap = tm.market.snapshot;
    const raw = [...(snap?.markets.values() ?? [])]
      .map((m) => m.supply.circulating)
      .filter((c): c is number => c !== null && servedNumber(c) !== c);
    expect(raw.length, 'the demo has medians with float noise').toBeGreaterThan(0);
    const rows = (await get('/coins/markets?vs_currency=usd&per_page=250')) as {
      circulating_supply: number;
    }[];
    const served = rows.map((r) => r.circulating_supply);
    for (const c of raw) expect(served).toContain(servedNumber(c));
    const full = (await get('/coins/markets?vs_currency=usd&per_page=250&precision=full')) as {
      circulating_supply: number;
    }[];
    for (const c of raw) expect(full.map((r) => r.circulating_supply)).toContain(c);
  });
});

describe('every Float the graph serves', () => {
  it('follows the rule on the market fields of every coin', async () => {
    const sg = createMarketsSubgraph({
      market: tm.market,
      engine: engineConfig({ staleAfterMs: 900_000 }),
      now: () => TEST_NOW,
    });
    const source = `{
      coins(first: 250) { edges { node {
        price(currency: "eur") marketCap(currency: "eur") fullyDilutedValuation(currency: "eur")
        volume24h(currency: "jpy") high24h(currency: "eur") low24h(currency: "eur") priceChange24h(currency: "eur")
        marketCapChangePercentage24h confidence
        supply { circulating total max sources { value } }
        changes { h1 h24 d7 d30 y1 }
        ath(currency: "eur") { value } atl(currency: "eur") { value }
        sparkline7d(currency: "eur")
      } } }
      global { totalMarketCap(currency: "jpy") totalVolume(currency: "jpy") marketCapChangePercentage24hUsd }
      categories { marketCap(currency: "usd") marketCapChangePercentage24h volume24h(currency: "usd") }
    }`;
    const r = await graphql({ schema: sg.schema, source, contextValue: sg.contextFor() });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    expect(numbers(r.data).length).toBeGreaterThan(2_000);
    expect(noisy(r.data)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartSeries } from '../../src/engine/chart.ts';
import { bucketStart, DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/engine/history.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

const BASE = '/v1/agg';
const COIN = 'litecoin';
/** A catalog coin whose circulating supply is not verified in the demo data: its market cap is null. */
const UNVERIFIED = 'junkcoin';

let m: TestMarket;
let snap: MarketSnapshot;

beforeAll(async () => {
  m = await createTestMarket({ days: 120 });
  snap = m.market.snapshot as MarketSnapshot;
}, 120_000);
afterAll(async () => {
  await m?.close();
});

async function get(
  url: string,
): Promise<{ status: number; body: unknown; headers: Record<string, unknown> }> {
  const r = await m.app.inject({ method: 'GET', url: `${BASE}${url}` });
  return { status: r.statusCode, body: r.json(), headers: r.headers };
}

async function chart(url: string): Promise<ChartSeries> {
  const r = await get(url);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as ChartSeries;
}

type Row = [number, number, number, number, number];
async function ohlc(url: string): Promise<Row[]> {
  const r = await get(url);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Row[];
}

const times = (s: ChartSeries): number[] => s.prices.map(([t]) => t);
const gaps = (ts: number[]): number[] => ts.slice(1).map((t, i) => t - (ts[i] as number));
const eurAt = (ts: number): number | null => m.market.state.fxAt('eur', ts);

describe('market_chart granularity', () => {
  it.each([
    [1, 5 * MINUTE_MS],
    [2, 5 * MINUTE_MS],
    [3, HOUR_MS],
    [95, HOUR_MS],
  ])('days=%i: points exactly every %i ms from now − days to now', async (days, step) => {
    const s = await chart(`/coins/${COIN}/market_chart?vs_currency=usd&days=${days}`);
    const ts = times(s);
    expect(ts[0]).toBe(TEST_NOW - days * DAY_MS);
    expect(ts.at(-1)).toBe(TEST_NOW);
    expect(new Set(gaps(ts))).toEqual(new Set([step]));
    expect(ts.length).toBe((days * DAY_MS) / step + 1);
    expect(times({ ...s, prices: s.market_caps })).toEqual(ts);
    expect(times({ ...s, prices: s.total_volumes })).toEqual(ts);
  });

  it.each(['96', 'max'])('days=%s: daily points at 00:00 UTC, then the "now" point', async (days) => {
    const s = await chart(`/coins/${COIN}/market_chart?vs_currency=usd&days=${days}`);
    const ts = times(s);
    const daily = ts.slice(0, -1);
    expect(daily.every((t) => t % DAY_MS === 0)).toBe(true);
    expect(new Set(gaps(daily))).toEqual(new Set([DAY_MS]));
    expect(daily.at(-1)).toBe(bucketStart(TEST_NOW, '1d'));
    expect(ts.at(-1)).toBe(TEST_NOW);
    // max starts at the first daily bar (the recording starts 120 days back); 96 days at the first midnight after.
    expect(ts[0]).toBe(
      days === 'max' ? bucketStart(TEST_NOW - 120 * DAY_MS, '1d') : bucketStart(TEST_NOW - 95 * DAY_MS, '1d'),
    );
  });

  it('interval overrides the automatic granularity where allowed', async () => {
    expect(
      new Set(gaps(times(await chart(`/coins/${COIN}/market_chart?vs_currency=usd&days=2&interval=hourly`)))),
    ).toEqual(new Set([HOUR_MS]));
    const daily = times(await chart(`/coins/${COIN}/market_chart?vs_currency=usd&days=10&interval=daily`));
    expect(daily.slice(0, -1).every((t) => t % DAY_MS === 0)).toBe(true);
    expect(daily).toHaveLength(11);
    const fine = times(await chart(`/coins/${COIN}/market_chart?vs_currency=usd&days=0.5&interval=5m`));
    expect(fine[0]).toBe(TEST_NOW - 12 * HOUR_MS);
    expect(new Set(gaps(fine))).toEqual(new Set([5 * MINUTE_MS]));
  });

  it('the last point is the current snapshot: price, market cap and volume', async () => {
    const s = await chart(`/coins/${COIN}/market_chart?vs_currency=usd&days=30&precision=full`);
    const coin = snap.markets.get(COIN);
    expect(s.prices.at(-1)).toEqual([snap.computedAt, coin?.price.priceUsd]);
    expect(s.market_caps.at(-1)).toEqual([snap.computedAt, coin?.marketCapUsd]);
    expect(s.total_volumes.at(-1)).toEqual([snap.computedAt, coin?.price.volumeUsd]);
  });
});

describe('market_chart currency conversion', () => {
  it("converts each point with the EUR rate of the point's own day", async () => {
    const usd = await chart(`/coins/${COIN}/market_chart?vs_currency=usd&days=30&precision=full`);
    const eur = await chart(`/coins/${COIN}/market_chart?vs_currency=eur&days=30&precision=full`);
    expect(times(eur)).toEqual(times(usd));
    // Two days with different EUR rates: one rate for the whole chart would get at least one of them wrong.
    const series = m.market.state.fxDaily.get('eur');
    const days = (series?.days ?? []).filter((d) => d >= TEST_NOW - 30 * DAY_MS);
    const [a, b] = [days[1] as number, days.find((d) => eurAt(d) !== eurAt(days[1] as number)) as number];
    expect(eurAt(a)).not.toBe(eurAt(b));
    for (const day of [a, b]) {
      const i = times(usd).indexOf(day + 6 * HOUR_MS);
      const rate = eurAt(day) as number;
      expect(eur.prices[i]?.[1]).toBe((usd.prices[i]?.[1] as number) / rate);
      expect(eur.market_caps[i]?.[1]).toBe((usd.market_caps[i]?.[1] as number) / rate);
      expect(eur.total_volumes[i]?.[1]).toBe((usd.total_volumes[i]?.[1] as number) / rate);
    }
    usd.prices.forEach(([t, v], i) => expect(eur.prices[i]?.[1]).toBe((v as number) / (eurAt(t) as number)));
  });

  it('an unknown rate gives null, never 0, and unverified market caps are null', async () => {
    const series = m.market.state.fxDaily.get('eur');
    if (!series) throw new Error('no eur series');
    const saved = { days: [...series.days], rates: [...series.rates], expires: [...series.expires] };
    const cut = bucketStart(TEST_NOW - 20 * DAY_MS, '1d');
    const keep = series.days.findIndex((d) => d >= cut);
    series.days.splice(0, keep);
    series.rates.splice(0, keep);
    series.expires.splice(0, keep);
    try {
      // A range no other test asks for, so the response cache cannot answer it from before the cut.
      const s = await chart(
        `/coins/${COIN}/market_chart/range?vs_currency=eur&from=2026-10-29T00:07&to=2026-11-05`,
      );
      const before = s.prices.filter(([t]) => t < cut);
      const after = s.prices.filter(([t]) => t >= cut);
      expect(before.length).toBeGreaterThan(0);
      expect(after.length).toBeGreaterThan(0);
      expect(before.every(([, v]) => v === null)).toBe(true);
      expect(s.market_caps.filter(([t]) => t < cut).every(([, v]) => v === null)).toBe(true);
      expect(after.every(([, v]) => typeof v === 'number' && v > 0)).toBe(true);
      const rows = await ohlc(`/coins/${COIN}/ohlc?vs_currency=eur&days=25`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every(([t]) => t - DAY_MS >= cut)).toBe(true); // days without a rate are left out
    } finally {
      series.days.splice(0, series.days.length, ...saved.days);
      series.rates.splice(0, series.rates.length, ...saved.rates);
      series.expires.splice(0, series.expires.length, ...saved.expires);
    }
    const caps = (await chart(`/coins/${UNVERIFIED}/market_chart?vs_currency=usd&days=1`)).market_caps;
    expect(caps.length).toBeGreaterThan(0);
    expect(caps.every(([, v]) => v === null)).toBe(true);
  });

  it('precision rounds every value', async () => {
    const s = await chart(`/coins/${COIN}/market_chart?vs_currency=usd&days=1&precision=2`);
    for (const k of ['prices', 'market_caps', 'total_volumes'] as const) {
      expect(s[k].every(([, v]) => v === null || Number(v.toFixed(2)) === v)).toBe(true);
    }
  });
});

describe('market_chart/range', () => {
  it('gives identical results for UNIX seconds and ISO dates', async () => {
    const from = Date.UTC(2026, 10, 10);
    const to = Date.UTC(2026, 10, 15, 6);
    const a = await get(
      `/coins/${COIN}/market_chart/range?vs_currency=usd&from=${from / 1000}&to=${to / 1000}`,
    );
    const b = await get(
      `/coins/${COIN}/market_chart/range?vs_currency=usd&from=2026-11-10&to=2026-11-15T06:00`,
    );
    const c = await get(
      `/coins/${COIN}/market_chart/range?vs_currency=usd&from=2026-11-10T00:00:00Z&to=2026-11-15T08:00:00%2B02:00`,
    );
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    const ts = times(a.body as ChartSeries);
    expect([ts[0], ts.at(-1)]).toEqual([from, to]);
    expect(new Set(gaps(ts))).toEqual(new Set([HOUR_MS]));
    expect(a.headers['cache-control']).toBe('public, max-age=600');
  });

  it('clamps a future to to now, ends with the now point and picks the granularity by span', async () => {
    const s = await chart(
      `/coins/${COIN}/market_chart/range?vs_currency=usd&from=${(TEST_NOW - DAY_MS) / 1000}&to=2030-01-01`,
    );
    const ts = times(s);
    expect(ts.at(-1)).toBe(TEST_NOW);
    expect(new Set(gaps(ts))).toEqual(new Set([5 * MINUTE_MS]));
    const old = await chart(
      `/coins/${COIN}/market_chart/range?vs_currency=usd&from=2026-08-01&to=2026-08-02`,
    );
    expect(times(old)).toEqual([Date.UTC(2026, 7, 1), Date.UTC(2026, 7, 2)]); // before the hourly window: daily
  });
});

describe('ohlc', () => {
  it('daily candles closing at the end of each UTC day, the open day last', async () => {
    const rows = await ohlc(`/coins/${COIN}/ohlc?vs_currency=usd&days=30`);
    expect(rows).toHaveLength(31);
    expect(rows.every((r) => r.length === 5 && r[0] % DAY_MS === 0)).toBe(true);
    expect(new Set(gaps(rows.map(([t]) => t)))).toEqual(new Set([DAY_MS]));
    expect(rows.at(-1)?.[0]).toBe(bucketStart(TEST_NOW, '1d') + DAY_MS);
    for (const [, o, h, l, c] of rows) {
      expect(h).toBeGreaterThanOrEqual(Math.max(o, c));
      expect(l).toBeLessThanOrEqual(Math.min(o, c));
      expect(l).toBeGreaterThan(0);
    }
    expect(rows.at(-1)?.[4]).toBe(Number(snap.markets.get(COIN)?.price.priceUsd?.toPrecision(12)));
  });

  it("converts each candle with its day's rate; max and interval=daily are served", async () => {
    const usd = await ohlc(`/coins/${COIN}/ohlc?vs_currency=usd&days=14&precision=full`);
    const eur = await ohlc(`/coins/${COIN}/ohlc?vs_currency=eur&days=14&precision=full&interval=daily`);
    expect(eur.map(([t]) => t)).toEqual(usd.map(([t]) => t));
    usd.forEach((row, i) => {
      const rate = eurAt(row[0] - DAY_MS) as number;
      expect(eur[i]).toEqual([row[0], ...row.slice(1).map((v) => v / rate)]);
    });
    const all = await get(`/coins/${COIN}/ohlc?vs_currency=usd&days=max`);
    expect((all.body as Row[])[0]?.[0]).toBe(bucketStart(TEST_NOW - 120 * DAY_MS, '1d') + DAY_MS);
    expect(all.headers['cache-control']).toBe('public, max-age=60');
  });
});

describe('errors', () => {
  it('404 for an unknown coin on every chart route', async () => {
    for (const path of [
      'market_chart?days=1',
      'market_chart/range?from=2026-01-01&to=2026-01-02',
      'ohlc?days=1',
    ]) {
      const r = await get(`/coins/no-such-coin/${path}&vs_currency=usd`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        error: { code: 'COIN_NOT_FOUND', message: expect.stringContaining('no-such-coin') },
      });
    }
  });

  const mc = `/coins/${COIN}/market_chart`;
  const rg = `/coins/${COIN}/market_chart/range`;
  const oh = `/coins/${COIN}/ohlc`;
  it.each([
    [`${mc}?days=1`, 'MISSING_PARAMETER', /^vs_currency is required/],
    [`${mc}?vs_currency=zzz&days=1`, 'INVALID_CURRENCY', /^vs_currency has an unsupported currency "zzz"/],
    [`${mc}?vs_currency=usd`, 'MISSING_PARAMETER', /^days is required/],
    [
      `${mc}?vs_currency=usd&days=0`,
      'INVALID_PARAMETER',
      /^days must be a number of days from 0\.01 to 3650/,
    ],
    [`${mc}?vs_currency=usd&days=-1`, 'INVALID_PARAMETER', /^days must be/],
    [`${mc}?vs_currency=usd&days=1e9`, 'INVALID_PARAMETER', /^days must be/],
    [`${mc}?vs_currency=usd&days=1&days=2`, 'REPEATED_PARAMETER', /^days must be given once/],
    [
      `${mc}?vs_currency=usd&days=3&interval=5m`,
      'INVALID_PARAMETER',
      /^interval=5m needs a span of at most 2 days/,
    ],
    [
      `${mc}?vs_currency=usd&days=96&interval=hourly`,
      'INVALID_PARAMETER',
      /^interval=hourly needs a span of at most 95 days/,
    ],
    [`${mc}?vs_currency=usd&days=max&interval=hourly`, 'INVALID_PARAMETER', /^interval=hourly needs/],
    [`${mc}?vs_currency=usd&days=1&interval=weekly`, 'INVALID_PARAMETER', /^interval must be empty/],
    [
      `${mc}?vs_currency=usd&days=1&precision=19`,
      'INVALID_PARAMETER',
      /^precision must be full or an integer/,
    ],
    [`/coins/LiteCoin/market_chart?vs_currency=usd&days=1`, 'INVALID_COIN_ID', /^id must be a coin id/],
    [`${rg}?vs_currency=usd&from=2026-01-01`, 'MISSING_PARAMETER', /^to is required/],
    [
      `${rg}?vs_currency=usd&from=2026-01-02&to=2026-01-01`,
      'INVALID_RANGE',
      /^from must be earlier than to$/,
    ],
    [
      `${rg}?vs_currency=usd&from=2008-06-01&to=2026-01-01`,
      'INVALID_PARAMETER',
      /^from must be on or after 2009-01-01/,
    ],
    [`${rg}?vs_currency=usd&from=yesterday&to=2026-01-01`, 'INVALID_PARAMETER', /^from must be UNIX seconds/],
    [
      `${rg}?vs_currency=usd&from=2026-11-01&to=2026-11-02&interval=5m`,
      'INVALID_PARAMETER',
      /^interval=5m serves only the last 2 days/,
    ],
    [
      `${oh}?vs_currency=usd&days=1.5`,
      'INVALID_PARAMETER',
      /^days must be an integer number of days from 1 to 3650/,
    ],
    [`${oh}?vs_currency=usd&days=1&interval=hourly`, 'INVALID_PARAMETER', /^interval must be daily or empty/],
    [`${oh}?days=1`, 'MISSING_PARAMETER', /^vs_currency is required/],
  ])('400 %s → %s', async (url, code, message) => {
    const r = await get(url);
    expect(r.status).toBe(400);
    const body = r.body as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message).toMatch(message);
  });
});

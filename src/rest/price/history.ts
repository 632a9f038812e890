/**
 * Routes over stored history: `/coins/{id}/history` (a coin as of a date), `/coins/{id}/ohlc/range` (daily or
 * hourly candles between two times) and `/global/market_cap_chart` (the market-wide sums). Wiring only: parameters
 * by `src/market/*-params.ts`, figures by `src/engine/` and the presenters; history is read from SQL only on a cache
 * miss (once per snapshot and key).
 */
import type { FastifyInstance } from 'fastify';
import { bool } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import { candles } from '../../engine/chart.ts';
import { globalChart } from '../../engine/global-chart.ts';
import { bucketStart, DAY_MS, HOUR_MS } from '../../engine/history.ts';
import type { Bar } from '../../engine/types.ts';
import { parseDays, parseRange, pickResolution } from '../../market/chart-params.ts';
import { checkRangeSpan, parseHistoryDate, parseRangeInterval } from '../../market/history-params.ts';
import { historyBarDay, presentCoinHistory } from '../../market/present/history.ts';
import { applyPrecision, parsePrecision } from '../../market/present/precision.ts';
import type { ResponseCache } from '../cache.ts';
import { coinOr404, parseVsCurrency, snapshotOr503, versionOf } from './currency.ts';
import type { PriceApiOptions } from './deps.ts';
import { CHART_MAX_AGE } from './schemas/charts.ts';
import { documented, MAX_AGE } from './schemas/common.ts';
import { coinHistorySchema, globalChartSchema, ohlcRangeSchema } from './schemas/history.ts';

type Req = { Params: { id: string }; Querystring: Query };

export function registerHistoryRoutes(
  app: FastifyInstance,
  opts: PriceApiOptions,
  cache: ResponseCache,
): void {
  const clock = (): number => opts.now?.() ?? Date.now();
  const currencies = opts.engine.currencies.map((c) => c.code);
  const assetIds = opts.engine.assets.map((a) => a.id);

  app.get<Req>('/coins/:id/history', documented(coinHistorySchema), async (req, reply) => {
    const snap = snapshotOr503(opts);
    const coin = coinOr404(snap, req.params.id);
    const day = parseHistoryDate(req.query, clock());
    const localization = bool(req.query, 'localization', true);
    const key = `history|${coin.id}|${day}|${localization}`;
    return cache.send(req, reply, key, versionOf(snap), MAX_AGE.history, async () => {
      const barDay = historyBarDay(day);
      const bars = await opts.market.readBars(coin.id, '1d', barDay, barDay);
      return presentCoinHistory(snap, coin, bars[0] ?? null, currencies, localization);
    });
  });

  app.get<Req>('/coins/:id/ohlc/range', documented(ohlcRangeSchema), async (req, reply) => {
    const snap = snapshotOr503(opts);
    const coin = coinOr404(snap, req.params.id);
    const code = parseVsCurrency(req.query, snap.rates);
    const now = clock();
    const window = parseRange(req.query, now);
    const interval = parseRangeInterval(req.query);
    checkRangeSpan(window, interval, now);
    const precision = parsePrecision(req.query);
    const res = interval === 'daily' ? '1d' : '1h';
    const width = interval === 'daily' ? DAY_MS : HOUR_MS;
    const key = `ohlc_range|${coin.id}|${code}|${window.from}|${window.requestedTo}|${interval}|${JSON.stringify(precision)}`;
    const maxAge = window.requestedTo < now - DAY_MS ? CHART_MAX_AGE.pastRange : CHART_MAX_AGE.ohlc;
    return cache.send(
      req,
      reply,
      key,
      versionOf(snap),
      maxAge,
      async () => {
        // Completed candles from SQL; the open one from memory, where every tick lands first (as /ohlc).
        const bars =
          window.from <= window.to
            ? await opts.market.readBars(coin.id, res, Math.max(0, window.from - width), window.to - width)
            : [];
        const open = openBar(opts, coin.id, interval === 'daily' ? '1d' : '1h', now);
        const rows = candles(bars, width, {
          from: window.from,
          to: window.to,
          rate: (ts) => snap.rates.at(code, ts),
          today: open,
        });
        return rows.map(([t, ...ohlc]) => [t, ...ohlc.map((v) => applyPrecision(v, precision))]);
      },
      precision.kind === 'full',
    );
  });

  app.get('/global/market_cap_chart', documented(globalChartSchema), async (req, reply) => {
    const q = req.query as Query;
    const snap = snapshotOr503(opts);
    const code = q['vs_currency'] === undefined ? 'usd' : parseVsCurrency(q, snap.rates);
    const days = parseDays(q, { decimals: false });
    const now = clock();
    const from = days.kind === 'max' ? 0 : now - days.spanMs;
    const span = days.kind === 'max' ? Infinity : days.spanMs;
    const res = pickResolution(span, { from, to: now }, now);
    const key = `global_chart|${code}|${days.kind === 'max' ? 'max' : days.days}|${res}`;
    return cache.send(req, reply, key, versionOf(snap), MAX_AGE.globalChart, async () => {
      const bars = await opts.market.readBarsMany(assetIds, res, from, now);
      const g = snap.global;
      const chart = globalChart(bars.values(), {
        from,
        to: now,
        rate: (ts) => snap.rates.at(code, ts),
        latest: { ts: snap.computedAt, marketCapUsd: g.totalMarketCapUsd, volumeUsd: g.totalVolumeUsd },
      });
      const round = (pts: [number, number | null][]) =>
        pts.map(([t, v]) => [t, applyPrecision(v, { kind: 'default' })]);
      return { market_cap_chart: { market_cap: round(chart.market_cap), volume: round(chart.volume) } };
    });
  });
}

/** The in-memory bar of the bucket containing `now` (the still open day or hour), if the coin has one. */
function openBar(opts: PriceApiOptions, id: string, res: '1d' | '1h', now: number): Bar | null {
  const h = opts.market.state.histories.get(id);
  const bars = res === '1d' ? h?.bars1d : h?.bars1h;
  const last = bars?.[bars.length - 1];
  return last && last.ts === bucketStart(now, res) ? last : null;
}

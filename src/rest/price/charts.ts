/**
 * Chart routes of the price API: `/coins/{id}/market_chart`, `/coins/{id}/market_chart/range` and
 * `/coins/{id}/ohlc`. Wiring only: parameters are parsed by `chart-params.ts`; series and candles are built once per
 * snapshot by the market's chart cache (`src/market/charts.ts`, shared with the graph) from history bars read from
 * SQL, converted with the historical rate of each point's time.
 */
import type { FastifyInstance } from 'fastify';
import type { ChartSeries } from '../../engine/chart.ts';
import { bucketStart, DAY_MS } from '../../engine/history.ts';
import type { AssetMarket, Bar } from '../../engine/types.ts';
import type { ReadBars } from '../../market/charts.ts';
import type { ResponseCache } from '../cache.ts';
import type { Query } from '../../core/params.ts';
import {
  parseChartInterval,
  parseDays,
  parseOhlcInterval,
  parseRange,
  pickResolution,
} from '../../market/chart-params.ts';
import { coinOr404, parseVsCurrency, snapshotOr503, versionOf } from './currency.ts';
import type { PriceApiOptions } from './deps.ts';
import { applyPrecision, parsePrecision } from '../../market/present/precision.ts';
import type { Precision } from '../../market/present/precision.ts';
import { CHART_MAX_AGE, marketChartRangeSchema, marketChartSchema, ohlcSchema } from './schemas/charts.ts';
import { documented } from './schemas/common.ts';

type Req = { Params: { id: string }; Querystring: Query };

/** Registers the three chart routes; paths are relative to the price API prefix. */
export function registerChartRoutes(app: FastifyInstance, opts: PriceApiOptions, cache: ResponseCache): void {
  app.get<Req>('/coins/:id/market_chart', documented(marketChartSchema), async (req, reply) => {
    const snap = snapshotOr503(opts);
    const coin = coinOr404(snap, req.params.id);
    const code = parseVsCurrency(req.query, snap.rates);
    const days = parseDays(req.query, { decimals: true });
    const interval = parseChartInterval(req.query);
    const precision = parsePrecision(req.query);
    const now = snap.computedAt;
    const from = days.kind === 'max' ? 0 : now - days.spanMs;
    const span = days.kind === 'max' ? Infinity : days.spanMs;
    const res = pickResolution(span, { from, to: now }, now, interval);
    // Built once per snapshot (shared with the graph), serialised once per snapshot and key.
    const spanKey = days.kind === 'max' ? 'max' : String(days.days);
    const key = `chart|${coin.id}|${code}|${spanKey}|${res}|${precisionKey(precision)}`;
    return cache.send(
      req,
      reply,
      key,
      versionOf(snap),
      CHART_MAX_AGE.chart,
      async () =>
        withPrecision(
          await opts.market.charts.series(
            snap,
            { coin, code, res, spanKey, from, to: now },
            readBars(opts, coin),
          ),
          precision,
        ),
      precision.kind === 'full',
    );
  });

  app.get<Req>('/coins/:id/market_chart/range', documented(marketChartRangeSchema), async (req, reply) => {
    const snap = snapshotOr503(opts);
    const coin = coinOr404(snap, req.params.id);
    const code = parseVsCurrency(req.query, snap.rates);
    const now = snap.computedAt;
    const window = parseRange(req.query, now);
    const interval = parseChartInterval(req.query);
    const precision = parsePrecision(req.query);
    const res = pickResolution(window.to - window.from, window, now, interval);
    const spanKey = `${window.from}-${window.requestedTo}`;
    const key = `range|${coin.id}|${code}|${spanKey}|${res}|${precisionKey(precision)}`;
    const maxAge = window.requestedTo < now - DAY_MS ? CHART_MAX_AGE.pastRange : CHART_MAX_AGE.chart;
    return cache.send(
      req,
      reply,
      key,
      versionOf(snap),
      maxAge,
      async () =>
        withPrecision(
          window.from <= window.to
            ? await opts.market.charts.series(
                snap,
                { coin, code, res, spanKey, from: window.from, to: window.to },
                readBars(opts, coin),
              )
            : { prices: [], market_caps: [], total_volumes: [] },
          precision,
        ),
      precision.kind === 'full',
    );
  });

  app.get<Req>('/coins/:id/ohlc', documented(ohlcSchema), async (req, reply) => {
    const snap = snapshotOr503(opts);
    const coin = coinOr404(snap, req.params.id);
    const code = parseVsCurrency(req.query, snap.rates);
    const days = parseDays(req.query, { decimals: false });
    parseOhlcInterval(req.query);
    const precision = parsePrecision(req.query);
    const now = snap.computedAt;
    const key = `ohlc|${coin.id}|${code}|${days.kind === 'max' ? 'max' : days.days}|${precisionKey(precision)}`;
    return cache.send(
      req,
      reply,
      key,
      versionOf(snap),
      CHART_MAX_AGE.ohlc,
      async () => {
        // Completed days only from SQL; the open day comes from memory, where every tick lands first.
        const rows = await opts.market.charts.candles(
          snap,
          {
            coin,
            code,
            days: days.kind === 'max' ? 'max' : days.days,
            now,
            today: () => todayBar(opts, coin.id, now),
          },
          readBars(opts, coin),
        );
        return rows.map(([t, ...ohlc]) => [t, ...ohlc.map((v) => applyPrecision(v, precision))]);
      },
      precision.kind === 'full',
    );
  });
}

/** The coin's history as the chart cache reads it: SQL. */
const readBars =
  (opts: PriceApiOptions, coin: AssetMarket): ReadBars =>
  (res, from, to) =>
    opts.market.readBars(coin.id, res, from, to);

/** A chart with precision applied to its values. */
function withPrecision(s: ChartSeries, precision: Precision): ChartSeries {
  const round = (pts: [number, number | null][]): [number, number | null][] =>
    pts.map(([t, v]) => [t, applyPrecision(v, precision)]);
  return {
    prices: round(s.prices),
    market_caps: round(s.market_caps),
    total_volumes: round(s.total_volumes),
  };
}

/** The in-memory daily bar of the current UTC day, if the coin has one. */
function todayBar(opts: PriceApiOptions, id: string, now: number): Bar | null {
  const bars = opts.market.state.histories.get(id)?.bars1d;
  const last = bars?.[bars.length - 1];
  return last && last.ts === bucketStart(now, '1d') ? last : null;
}

function precisionKey(p: Precision): string {
  return p.kind === 'decimals' ? String(p.n) : p.kind;
}

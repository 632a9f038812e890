/// <reference lib="dom" />
/**
 * An OHLC candlestick chart in plain SVG (no chart library), in the style of `charts.tsx`: `role="img"` with a label,
 * a `<title>` per candle (its day and open/high/low/close), and the data as a table in a closed `<details>` for anyone
 * who prefers numbers. Rising candles (close ≥ open) are hollow green, falling ones filled red, so the direction does
 * not rest on colour alone. Candles are labelled with their UTC day: the day their close time ends (a close at
 * 00:00 UTC closes the day before; the open day closes now).
 */
import type { JSX } from 'preact';

export interface Candle {
  /** Close time of the candle, UNIX ms. */
  time: number;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
}

/** A candle with every price known. */
type Full = { time: number; open: number; high: number; low: number; close: number };

const W = 640;
const H = 240;
const PAD = { l: 64, r: 12, t: 12, b: 28 };
const UP = '#1a7f37';
const DOWN = '#c62828';

const isFull = (c: Candle): c is Full =>
  c.open !== null && c.high !== null && c.low !== null && c.close !== null;

const defaultPrice = (v: number): string =>
  Math.abs(v) >= 1000
    ? v.toLocaleString('en-US', { maximumFractionDigits: 0 })
    : Math.abs(v) >= 1
      ? v.toFixed(2)
      : v.toPrecision(4);

/** Geometry of each candle in the chart's viewBox (exported for tests). */
export function candleGeometry(
  candles: readonly Candle[],
  size: { w: number; h: number; pad: { l: number; r: number; t: number; b: number } } = {
    w: W,
    h: H,
    pad: PAD,
  },
): {
  lo: number;
  hi: number;
  bars: {
    c: Full;
    x: number;
    width: number;
    wickTop: number;
    wickBottom: number;
    bodyTop: number;
    bodyHeight: number;
    up: boolean;
  }[];
} {
  const full = candles.filter(isFull);
  if (full.length === 0) return { lo: 0, hi: 0, bars: [] };
  let lo = Math.min(...full.map((c) => c.low));
  let hi = Math.max(...full.map((c) => c.high));
  if (hi === lo) {
    hi += Math.abs(hi) * 0.01 || 1;
    lo -= Math.abs(lo) * 0.01 || 1;
  }
  const plotW = size.w - size.pad.l - size.pad.r;
  const plotH = size.h - size.pad.t - size.pad.b;
  const slot = plotW / full.length;
  const width = Math.max(1, Math.min(24, slot * 0.6));
  const sy = (v: number) => size.pad.t + ((hi - v) / (hi - lo)) * plotH;
  return {
    lo,
    hi,
    bars: full.map((c, i) => {
      const up = c.close >= c.open;
      const top = sy(Math.max(c.open, c.close));
      const bottom = sy(Math.min(c.open, c.close));
      return {
        c,
        x: size.pad.l + slot * i + slot / 2,
        width,
        wickTop: sy(c.high),
        wickBottom: sy(c.low),
        bodyTop: top,
        bodyHeight: Math.max(1, bottom - top),
        up,
      };
    }),
  };
}

export function CandleChart(props: {
  label: string;
  candles: readonly Candle[];
  /** Label of a day, given a time inside it; default `YYYY-MM-DD` (UTC). */
  timeFormat?: (t: number) => string;
  priceFormat?: (v: number) => string;
}): JSX.Element {
  const dayOf = props.timeFormat ?? ((t: number) => new Date(t).toISOString().slice(0, 10));
  // The day a candle covers: its close time is the end of that day (or now, inside it).
  const tf = (close: number) => dayOf(close - 1);
  const pf = props.priceFormat ?? defaultPrice;
  const g = candleGeometry(props.candles);
  if (g.bars.length === 0)
    return (
      <p role="note" class="chart-empty">
        {props.label}: no data yet
      </p>
    );
  const first = g.bars[0] as (typeof g.bars)[number];
  const last = g.bars[g.bars.length - 1] as (typeof g.bars)[number];
  const describe = (c: Full) =>
    `${tf(c.time)}: open ${pf(c.open)}, high ${pf(c.high)}, low ${pf(c.low)}, close ${pf(c.close)}`;
  return (
    <figure class="chart candles">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={props.label}
        width="100%"
        data-candles={g.bars.length}
      >
        <title>{props.label}</title>
        <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} stroke="#888" />
        <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} stroke="#888" />
        <text x={PAD.l - 6} y={PAD.t + 8} text-anchor="end" font-size="11" fill="#222">
          {pf(g.hi)}
        </text>
        <text x={PAD.l - 6} y={H - PAD.b} text-anchor="end" font-size="11" fill="#222">
          {pf(g.lo)}
        </text>
        <text x={PAD.l} y={H - 8} font-size="11" fill="#222">
          {tf(first.c.time)}
        </text>
        <text x={W - PAD.r} y={H - 8} text-anchor="end" font-size="11" fill="#222">
          {tf(last.c.time)}
        </text>
        {g.bars.map((b) => (
          <g class={b.up ? 'candle up' : 'candle down'}>
            <title>{describe(b.c)}</title>
            <line x1={b.x} x2={b.x} y1={b.wickTop} y2={b.wickBottom} stroke={b.up ? UP : DOWN} />
            <rect
              x={b.x - b.width / 2}
              y={b.bodyTop}
              width={b.width}
              height={b.bodyHeight}
              fill={b.up ? '#fff' : DOWN}
              stroke={b.up ? UP : DOWN}
            />
          </g>
        ))}
      </svg>
      <figcaption>
        <span class="legend">
          <span aria-hidden="true" style={{ color: UP }}>
            □
          </span>{' '}
          rising day (hollow){' '}
        </span>
        <span class="legend">
          <span aria-hidden="true" style={{ color: DOWN }}>
            ■
          </span>{' '}
          falling day (filled)
        </span>
      </figcaption>
      <details>
        <summary>Candles as a table</summary>
        <table>
          <caption>{props.label}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Open</th>
              <th scope="col">High</th>
              <th scope="col">Low</th>
              <th scope="col">Close</th>
            </tr>
          </thead>
          <tbody>
            {g.bars.map((b) => (
              <tr>
                <th scope="row">{tf(b.c.time)}</th>
                <td>{pf(b.c.open)}</td>
                <td>{pf(b.c.high)}</td>
                <td>{pf(b.c.low)}</td>
                <td>{pf(b.c.close)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

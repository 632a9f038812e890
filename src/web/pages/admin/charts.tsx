/// <reference lib="dom" />
/**
 * The dashboard's own charts, beside the shared `LineChart`/`BarChart`: horizontal bars against a threshold line
 * (source freshness: age of the newest record, stale beyond 15 minutes), and the data of any chart as a table in a
 * closed `<details>` (the charts are the view; the numbers stay reachable for screen readers and for copying).
 */
import type { ComponentChildren, JSX } from 'preact';

export interface ThresholdBar {
  label: string;
  /** The measured value; null when there is none (drawn as a full-length hatched "never" bar). */
  value: number | null;
  /** Whether the value is acceptable (the server's verdict, not recomputed here). */
  ok: boolean;
  /** Text after the label, e.g. `3 rejected`. */
  note?: string;
}

const W = 520;
const ROW = 30;
const PAD = { l: 150, r: 70, t: 22, b: 26 };
const OK = '#2f6fdb';
const BAD = '#c62828';

/** Horizontal bars of `value` with a dashed vertical line at `threshold`; bars past it (not `ok`) are red. */
export function ThresholdBars(props: {
  label: string;
  bars: readonly ThresholdBar[];
  threshold: number;
  thresholdLabel: string;
  format: (v: number) => string;
  okLabel: string;
  badLabel: string;
}): JSX.Element {
  if (props.bars.length === 0)
    return (
      <p role="note" class="chart-empty">
        {props.label}: no data yet
      </p>
    );
  const H = PAD.t + props.bars.length * ROW + PAD.b;
  const max = Math.max(props.threshold * 1.25, ...props.bars.map((b) => b.value ?? 0));
  const plotW = W - PAD.l - PAD.r;
  const sx = (v: number) => PAD.l + (Math.min(v, max) / max) * plotW;
  const tx = sx(props.threshold);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label} width="100%">
        <title>{props.label}</title>
        <defs>
          <pattern
            id="never-hatch"
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" fill="#fbe3e3" />
            <line x1="0" y1="0" x2="0" y2="6" stroke={BAD} stroke-width="2" />
          </pattern>
        </defs>
        <line x1={PAD.l} y1={PAD.t - 4} x2={PAD.l} y2={H - PAD.b} stroke="#888" />
        {props.bars.map((b, i) => {
          const y = PAD.t + i * ROW;
          const w = b.value === null ? plotW : Math.max(2, sx(b.value) - PAD.l);
          const text = b.value === null ? 'never' : props.format(b.value);
          return (
            <g class={b.ok ? 'bar ok' : 'bar bad'}>
              <title>{`${b.label}: ${text}${b.ok ? '' : ` (${props.badLabel})`}${b.note ? `, ${b.note}` : ''}`}</title>
              <text x={PAD.l - 8} y={y + ROW / 2 + 1} text-anchor="end" font-size="12" fill="#222">
                {b.label}
              </text>
              <text x={PAD.l - 8} y={y + ROW / 2 + 12} text-anchor="end" font-size="10" fill="#444">
                {b.note ?? ''}
              </text>
              <rect
                x={PAD.l}
                y={y + 5}
                width={w}
                height={ROW - 10}
                fill={b.value === null ? 'url(#never-hatch)' : b.ok ? OK : BAD}
              />
              <text
                x={Math.min(PAD.l + w + 6, W - PAD.r + 4)}
                y={y + ROW / 2 + 4}
                font-size="12"
                fill={b.ok ? '#222' : BAD}
              >
                {text}
                {b.ok ? '' : ' ✗'}
              </text>
            </g>
          );
        })}
        <line x1={tx} x2={tx} y1={PAD.t - 8} y2={H - PAD.b} stroke="#222" stroke-dasharray="5 4" />
        <text x={tx} y={PAD.t - 10} text-anchor="middle" font-size="11" fill="#222">
          {props.thresholdLabel}
        </text>
        <text x={PAD.l} y={H - 8} font-size="11" fill="#222">
          0
        </text>
        <text x={PAD.l + plotW} y={H - 8} text-anchor="end" font-size="11" fill="#222">
          {props.format(max)}
        </text>
      </svg>
      <figcaption>
        <span class="legend">
          <span aria-hidden="true" style={{ color: OK }}>
            ■
          </span>{' '}
          {props.okLabel}{' '}
        </span>
        <span class="legend">
          <span aria-hidden="true" style={{ color: BAD }}>
            ■
          </span>{' '}
          {props.badLabel} (marked ✗){' '}
        </span>
        <span class="legend">
          <span aria-hidden="true">┆</span> {props.thresholdLabel}
        </span>
      </figcaption>
    </figure>
  );
}

/** A chart's numbers as a table inside a closed `<details>`. */
export function DataTable(props: {
  caption: string;
  columns: readonly string[];
  rows: readonly (readonly ComponentChildren[])[];
}): JSX.Element | null {
  if (props.rows.length === 0) return null;
  return (
    <details class="data">
      <summary>{props.caption}: the numbers</summary>
      <div class="scroll">
        <table>
          <caption>{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((c) => (
                <th scope="col">{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((r) => (
              <tr>{r.map((cell, i) => (i === 0 ? <th scope="row">{cell}</th> : <td>{cell}</td>))}</tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/**
 * A price line scaled to the prices' own range (not from zero, as the shared `LineChart` is), with a dot on each
 * point so the chart's resolution can be seen, and a label per axis end.
 */
export function PriceLine(props: {
  label: string;
  points: readonly { x: number; y: number | null }[];
  color: string;
  xFormat: (x: number) => string;
  yFormat: (y: number) => string;
  legend: string;
}): JSX.Element {
  const W2 = 640;
  const H2 = 240;
  const P = { l: 64, r: 12, t: 12, b: 28 };
  const pts = props.points.filter((p): p is { x: number; y: number } => p.y !== null && Number.isFinite(p.y));
  if (pts.length === 0)
    return (
      <p role="note" class="chart-empty">
        {props.label}: no data yet
      </p>
    );
  const x0 = pts[0]!.x;
  const x1 = Math.max(pts[pts.length - 1]!.x, x0 + 1);
  let lo = Math.min(...pts.map((p) => p.y));
  let hi = Math.max(...pts.map((p) => p.y));
  if (hi === lo) {
    hi += Math.abs(hi) * 0.01 || 1;
    lo -= Math.abs(lo) * 0.01 || 1;
  }
  const sx = (x: number) => P.l + ((x - x0) / (x1 - x0)) * (W2 - P.l - P.r);
  const sy = (y: number) => P.t + ((hi - y) / (hi - lo)) * (H2 - P.t - P.b);
  const dots = pts.length <= 400;
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${W2} ${H2}`}
        role="img"
        aria-label={props.label}
        width="100%"
        data-points={pts.length}
      >
        <title>{props.label}</title>
        <line x1={P.l} y1={H2 - P.b} x2={W2 - P.r} y2={H2 - P.b} stroke="#888" />
        <line x1={P.l} y1={P.t} x2={P.l} y2={H2 - P.b} stroke="#888" />
        <text x={P.l - 6} y={P.t + 8} text-anchor="end" font-size="11" fill="#222">
          {props.yFormat(hi)}
        </text>
        <text x={P.l - 6} y={H2 - P.b} text-anchor="end" font-size="11" fill="#222">
          {props.yFormat(lo)}
        </text>
        <text x={P.l} y={H2 - 8} font-size="11" fill="#222">
          {props.xFormat(x0)}
        </text>
        <text x={W2 - P.r} y={H2 - 8} text-anchor="end" font-size="11" fill="#222">
          {props.xFormat(x1)}
        </text>
        <polyline
          fill="none"
          stroke={props.color}
          stroke-width="1.5"
          points={pts.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ')}
        />
        {dots && (
          <g fill={props.color} aria-hidden="true">
            {pts.map((p) => (
              <circle cx={sx(p.x).toFixed(1)} cy={sy(p.y).toFixed(1)} r="1.6" />
            ))}
          </g>
        )}
      </svg>
      <figcaption>
        <span class="legend">
          <span aria-hidden="true" style={{ color: props.color }}>
            ●
          </span>{' '}
          {props.legend}
        </span>
      </figcaption>
    </figure>
  );
}

/// <reference lib="dom" />
/**
 * Small SVG charts shared by the pages (no chart library): a time-series line chart with optional point markers
 * and a bar chart for distributions. Accessible: each chart is `role="img"` with a label; a line chart given
 * `table` also carries a visually hidden table of its data for screen readers.
 */
import type { JSX } from 'preact';

export interface Series {
  name: string;
  color: string;
  points: readonly { x: number; y: number | null }[];
  /** SVG `stroke-dasharray` (e.g. `"6 3"`), so series differ by more than colour; default solid. */
  dash?: string;
}

export interface Marker {
  x: number;
  label: string;
  color: string;
}

const W = 640;
const H = 220;
const PAD = { l: 56, r: 12, t: 12, b: 28 };

const fmt = (v: number): string =>
  Number.isInteger(v) && Math.abs(v) < 1e3
    ? String(v)
    : Math.abs(v) >= 1e9
      ? `${(v / 1e9).toFixed(1)}B`
      : Math.abs(v) >= 1e6
        ? `${(v / 1e6).toFixed(1)}M`
        : Math.abs(v) >= 1e3
          ? `${(v / 1e3).toFixed(1)}k`
          : Math.abs(v) >= 1
            ? v.toFixed(2)
            : v.toPrecision(3);

/** Visually hidden (still read by screen readers). */
const SR_ONLY = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: '0',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: '0',
} as const;

/** The series' values by x, one row per x (oldest first), for the hidden data table. */
function DataTable(props: {
  label: string;
  series: readonly Series[];
  xFormat: (x: number) => string;
  xLabel: string;
}): JSX.Element {
  const xs = [...new Set(props.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const byX = props.series.map((s) => new Map(s.points.map((p) => [p.x, p.y])));
  return (
    <table style={SR_ONLY}>
      <caption>{props.label}</caption>
      <thead>
        <tr>
          <th scope="col">{props.xLabel}</th>
          {props.series.map((s) => (
            <th scope="col" key={s.name}>
              {s.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {xs.map((x) => (
          <tr key={x}>
            <th scope="row">{props.xFormat(x)}</th>
            {byX.map((m, i) => {
              const y = m.get(x);
              return <td key={i}>{y === undefined || y === null ? '–' : String(y)}</td>;
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function LineChart(props: {
  label: string;
  series: readonly Series[];
  markers?: readonly Marker[];
  xFormat?: (x: number) => string;
  /** Also render the data as a visually hidden table (for screen readers); `xLabel` heads its first column. */
  table?: boolean | { xLabel: string };
}): JSX.Element {
  const xs = props.series.flatMap((s) => s.points.map((p) => p.x));
  const ys = props.series.flatMap((s) => s.points.flatMap((p) => (p.y === null ? [] : [p.y])));
  const xFormat = props.xFormat ?? ((x: number) => new Date(x).toISOString().slice(11, 16));
  if (xs.length === 0 || ys.length === 0)
    return (
      <p role="note" class="chart-empty">
        {props.label}: no data yet
      </p>
    );
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs, x0 + 1);
  const yMin = Math.min(0, ...ys);
  const yMax = Math.max(...ys, yMin + 1);
  const sx = (x: number) => PAD.l + ((x - x0) / (x1 - x0)) * (W - PAD.l - PAD.r);
  const sy = (y: number) => H - PAD.b - ((y - yMin) / (yMax - yMin)) * (H - PAD.t - PAD.b);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label} width="100%">
        <title>{props.label}</title>
        <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} stroke="#888" />
        <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} stroke="#888" />
        <text x={PAD.l - 6} y={sy(yMax) + 4} text-anchor="end" font-size="11">
          {fmt(yMax)}
        </text>
        <text x={PAD.l - 6} y={sy(yMin) + 4} text-anchor="end" font-size="11">
          {fmt(yMin)}
        </text>
        <text x={PAD.l} y={H - 8} font-size="11">
          {xFormat(x0)}
        </text>
        <text x={W - PAD.r} y={H - 8} text-anchor="end" font-size="11">
          {xFormat(x1)}
        </text>
        {(props.markers ?? []).map((m, i) => (
          <g key={`m${i}`} class="chart-marker">
            <title>{m.label}</title>
            <line
              x1={sx(m.x)}
              x2={sx(m.x)}
              y1={PAD.t}
              y2={H - PAD.b}
              stroke={m.color}
              stroke-dasharray="3 3"
            />
            <circle cx={sx(m.x)} cy={PAD.t + 3} r="3.5" fill={m.color} />
          </g>
        ))}
        {props.series.map((s) => (
          <polyline
            key={s.name}
            fill="none"
            stroke={s.color}
            stroke-dasharray={s.dash}
            stroke-width="2"
            points={s.points
              .flatMap((p) => (p.y === null ? [] : [`${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`]))
              .join(' ')}
          />
        ))}
      </svg>
      <figcaption>
        {props.series.map((s) => (
          <span class="legend" key={s.name}>
            {s.dash ? (
              <svg
                aria-hidden="true"
                width="22"
                height="10"
                viewBox="0 0 22 10"
                style={{ display: 'inline-block', verticalAlign: 'middle' }}
              >
                <line
                  x1="1"
                  y1="5"
                  x2="21"
                  y2="5"
                  stroke={s.color}
                  stroke-width="2.5"
                  stroke-dasharray={s.dash}
                />
              </svg>
            ) : (
              <span aria-hidden="true" style={{ color: s.color }}>
                ■
              </span>
            )}{' '}
            {s.name}{' '}
          </span>
        ))}
      </figcaption>
      {props.table ? (
        <DataTable
          label={props.label}
          series={props.series}
          xFormat={xFormat}
          xLabel={typeof props.table === 'object' ? props.table.xLabel : 'Time'}
        />
      ) : null}
    </figure>
  );
}

export function BarChart(props: {
  label: string;
  bars: readonly { label: string; value: number; color?: string }[];
}): JSX.Element {
  if (props.bars.length === 0)
    return (
      <p role="note" class="chart-empty">
        {props.label}: no data yet
      </p>
    );
  const max = Math.max(1, ...props.bars.map((b) => b.value));
  const bw = (W - PAD.l - PAD.r) / props.bars.length;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label} width="100%">
        <title>{props.label}</title>
        <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} stroke="#888" />
        <text x={PAD.l - 6} y={PAD.t + 8} text-anchor="end" font-size="11">
          {fmt(max)}
        </text>
        {props.bars.map((b, i) => {
          const h = (b.value / max) * (H - PAD.t - PAD.b);
          return (
            <g key={`${i}:${b.label}`}>
              <rect
                x={PAD.l + i * bw + 2}
                y={H - PAD.b - h}
                width={Math.max(1, bw - 4)}
                height={h}
                fill={b.color ?? '#3b6fd8'}
              >
                <title>{`${b.label}: ${b.value}`}</title>
              </rect>
              <text x={PAD.l + i * bw + bw / 2} y={H - 10} text-anchor="middle" font-size="10">
                {b.label}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

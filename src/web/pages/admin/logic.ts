/**
 * Pure helpers of the administrator dashboard (no DOM, no network): the review forms' validation, the chart
 * granularity rule and its measurement, the request-statistics series, and the labels the charts show.
 * Unit-tested in test/web/admin.test.ts.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------------------------
// Review forms

/** Longest text the server takes: a key's reason (REST and graph: 500), a dapp's notes (2,000). */
export const NOTE_LIMITS = { reason: 500, notes: 2000 } as const;

/**
 * The inline check of a decision's reason or notes: required (not blank) and within the server's limit. Returns the
 * message to show under the field, or null when the text is acceptable.
 */
export function checkNote(text: string, kind: keyof typeof NOTE_LIMITS): string | null {
  const what = kind === 'reason' ? 'a reason' : 'notes';
  const t = text.trim();
  if (t === '')
    return `Write ${what} for this decision: ${kind === 'reason' ? 'it goes to the audit log (and to the owner when rejected)' : 'the submitter sees them'}.`;
  if (t.length > NOTE_LIMITS[kind])
    return `Keep it to ${NOTE_LIMITS[kind].toLocaleString('en-US')} characters (now ${t.length.toLocaleString('en-US')}).`;
  return null;
}

/** The requests-per-minute field of an enterprise key: empty (keep the requested limit) or an integer 1–10,000. */
export function checkLimit(
  text: string,
): { ok: true; value: number | undefined } | { ok: false; message: string } {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  const n = Number(t);
  if (!/^\d+$/.test(t) || !Number.isInteger(n) || n < 1 || n > 10_000)
    return {
      ok: false,
      message: 'Requests per minute: a whole number from 1 to 10,000, or empty to keep it.',
    };
  return { ok: true, value: n };
}

/** A key's prefix as shown (`cw_live_ab12…`). */
export const keyLabel = (prefix: string): string => `${prefix}…`;

/** A shortened address for lists (`ltc1qabcd…wxyz`); short addresses unchanged. */
export function shortAddress(a: string): string {
  return a.length <= 18 ? a : `${a.slice(0, 10)}…${a.slice(-6)}`;
}

/**
 * The `mailto:` link of a contact address, built by encoding (RFC 6068): the part before the last `@` and the part
 * after it percent-encoded each, so whatever was stored (addresses accepted before the stricter rule too) names one
 * recipient and nothing else — no `?cc=`, `&body=` or `%40` can become part of the link's query.
 */
export function mailtoHref(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return `mailto:${encodeURIComponent(address)}`;
  return `mailto:${encodeURIComponent(address.slice(0, at))}@${encodeURIComponent(address.slice(at + 1))}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Chart granularity (docs/methodology.md: "History and chart granularity")

export type Granularity = '5-minute' | 'hourly' | 'daily';

/** The spans the market view offers, in days. */
export const SPANS = [1, 7, 30, 90, 365] as const;

/** The rule, finest first: spans up to `maxDays` (inclusive) get points `stepMs` apart. */
export const GRANULARITY_RULES: readonly {
  granularity: Granularity;
  maxDays: number;
  stepMs: number;
  rule: string;
}[] = [
  { granularity: '5-minute', maxDays: 2, stepMs: 5 * MINUTE_MS, rule: 'up to 2 days' },
  { granularity: 'hourly', maxDays: 95, stepMs: HOUR_MS, rule: 'more than 2 days, up to 95 days' },
  { granularity: 'daily', maxDays: Infinity, stepMs: DAY_MS, rule: 'more than 95 days' },
];

/** The granularity the rule gives a span of `days`. */
export function expectedGranularity(days: number): Granularity {
  return (GRANULARITY_RULES.find((r) => days <= r.maxDays) ?? GRANULARITY_RULES[2])!.granularity;
}

export interface Measured {
  /** Points in the chart. */
  points: number;
  /** Median spacing between consecutive bucket points, ms; null with fewer than two. */
  medianMs: number | null;
  /** The rule's granularity the spacing matches (within a factor of 1.5); null when none does. */
  granularity: Granularity | null;
}

/**
 * Measures a chart's resolution from its point times (UNIX ms, oldest first): the median spacing of consecutive
 * points, the last one left out (it is the current value, at any time after the last bucket).
 */
export function measureGranularity(times: readonly number[]): Measured {
  const buckets = times.length > 2 ? times.slice(0, -1) : times;
  const gaps: number[] = [];
  for (let i = 1; i < buckets.length; i++) {
    const g = (buckets[i] as number) - (buckets[i - 1] as number);
    if (g > 0) gaps.push(g);
  }
  if (gaps.length === 0) return { points: times.length, medianMs: null, granularity: null };
  gaps.sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  const medianMs =
    gaps.length % 2 ? (gaps[mid] as number) : ((gaps[mid - 1] as number) + (gaps[mid] as number)) / 2;
  const match = GRANULARITY_RULES.find((r) => medianMs >= r.stepMs / 1.5 && medianMs <= r.stepMs * 1.5);
  return { points: times.length, medianMs, granularity: match?.granularity ?? null };
}

/** A duration for people: `45 s`, `5 min`, `1 h 30 min`, `2 d 4 h`. */
export function formatDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

// ---------------------------------------------------------------------------------------------------------------
// Request statistics

export interface PlanMinute {
  minute: string;
  plan: string;
  requests: number;
  clientErrors: number;
  serverErrors: number;
  rateLimited: number;
  unauthorized: number;
}

export interface Point {
  x: number;
  y: number | null;
}

/** Plans in the order the charts list them; other names follow, alphabetically. */
export const PLAN_ORDER = ['keyless', 'free', 'pro', 'enterprise'] as const;

export const PLAN_COLORS: Readonly<Record<string, string>> = {
  keyless: '#6b6b6b',
  free: '#2f6fdb',
  pro: '#b35c00',
  enterprise: '#7a3db8',
};

/** Every minute start of `[from, to)`, floored to the minute (the server omits minutes without requests). */
export function minutesOf(from: number, to: number): number[] {
  const out: number[] = [];
  const start = Math.floor(from / MINUTE_MS) * MINUTE_MS;
  for (let t = start; t < to && out.length < 1441; t += MINUTE_MS) out.push(t);
  return out;
}

/** The plans present, in {@link PLAN_ORDER}. */
export function plansOf(rows: readonly PlanMinute[]): string[] {
  const seen = new Set(rows.map((r) => r.plan));
  const known: string[] = PLAN_ORDER.filter((p) => seen.has(p));
  const other = [...seen].filter((p) => !(PLAN_ORDER as readonly string[]).includes(p)).sort();
  return [...known, ...other];
}

/**
 * One series per plan of `value(row)` per minute over `[from, to)`, zeros where the plan had no requests; no plans
 * → no series (the chart then says "no data yet").
 */
export function perPlanSeries(
  rows: readonly PlanMinute[],
  from: number,
  to: number,
  value: (r: PlanMinute) => number,
): { plan: string; points: Point[] }[] {
  const minutes = minutesOf(from, to);
  return plansOf(rows).map((plan) => {
    const byMinute = new Map<number, number>();
    for (const r of rows) {
      if (r.plan !== plan) continue;
      const t = Math.floor(Date.parse(r.minute) / MINUTE_MS) * MINUTE_MS;
      byMinute.set(t, (byMinute.get(t) ?? 0) + value(r));
    }
    return { plan, points: minutes.map((x) => ({ x, y: byMinute.get(x) ?? 0 })) };
  });
}

/** `value(row)` summed over every plan per minute of `[from, to)`; no rows → no points. */
export function totalSeries(
  rows: readonly PlanMinute[],
  from: number,
  to: number,
  value: (r: PlanMinute) => number,
): Point[] {
  if (rows.length === 0) return [];
  const byMinute = new Map<number, number>();
  for (const r of rows) {
    const t = Math.floor(Date.parse(r.minute) / MINUTE_MS) * MINUTE_MS;
    byMinute.set(t, (byMinute.get(t) ?? 0) + value(r));
  }
  return minutesOf(from, to).map((x) => ({ x, y: byMinute.get(x) ?? 0 }));
}

/** Totals of a window per plan (for the charts' text summaries). */
export function planTotals(rows: readonly PlanMinute[]): {
  plan: string;
  requests: number;
  errors: number;
  rateLimited: number;
  unauthorized: number;
}[] {
  return plansOf(rows).map((plan) => {
    const mine = rows.filter((r) => r.plan === plan);
    const sum = (f: (r: PlanMinute) => number) => mine.reduce((n, r) => n + f(r), 0);
    return {
      plan,
      requests: sum((r) => r.requests),
      errors: sum((r) => r.clientErrors + r.serverErrors),
      rateLimited: sum((r) => r.rateLimited),
      unauthorized: sum((r) => r.unauthorized),
    };
  });
}

/** A cost bound for a bar label: `500`, `2.5k`, `20k`. */
export function compactCost(n: number): string {
  if (n < 1000) return String(n);
  const k = n / 1000;
  return `${Number.isInteger(k) ? k : k.toFixed(1)}k`;
}

/**
 * The cost histogram's bars: a short label for the chart (`≤ 50`, `≤ 2.5k`, `> 20k`: each bucket's upper bound,
 * inclusive; the last one open) and the exact range for the table (`11–50`).
 */
export function costBars(
  buckets: readonly { upTo: number | null; count: number }[],
): { label: string; range: string; value: number }[] {
  let prev: number | null = null;
  return buckets.map((b) => {
    const label = b.upTo === null ? `> ${compactCost(prev ?? 0)}` : `≤ ${compactCost(b.upTo)}`;
    const range =
      b.upTo === null
        ? `more than ${prev ?? 0}`
        : prev === null
          ? `up to ${b.upTo}`
          : prev + 1 === b.upTo
            ? `${b.upTo}`
            : `${prev + 1}–${b.upTo}`;
    if (b.upTo !== null) prev = b.upTo;
    return { label, range, value: b.count };
  });
}

/** A confidence band's label: `0.0–0.2`. */
export const bandLabel = (from: number, to: number): string => `${from.toFixed(1)}–${to.toFixed(1)}`;

/** Stale threshold the sources chart draws (the server's default; `fresh` itself comes from the server). */
export const STALE_AFTER_SECONDS = 15 * 60;

/** Time of day (UTC) for minute charts, `HH:MM`. */
export const clock = (t: number): string => new Date(t).toISOString().slice(11, 16);
/** Calendar day (UTC), `YYYY-MM-DD`. */
export const day = (t: number): string => new Date(t).toISOString().slice(0, 10);
/** Day and time (UTC), `YYYY-MM-DD HH:MM`. */
export const dayClock = (t: number): string => new Date(t).toISOString().slice(0, 16).replace('T', ' ');

/** A price for labels: significant digits for small prices, grouped thousands for large. */
export function formatPrice(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a >= 1000) return v.toLocaleString('en-US', { maximumFractionDigits: 0 });
  if (a >= 1) return v.toLocaleString('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
  if (a === 0) return '0';
  return v.toPrecision(4);
}

/// <reference lib="dom" />
/**
 * Service health as charts: the market data's (`marketHealth`: ingestion freshness per source against the stale
 * threshold, coins with unverified supply, the price-confidence distribution) and the requests' (`serviceStats`:
 * requests and errors per plan per minute, rate-limit (429) and unauthorized (401) refusals, the query-cost
 * histogram). Each part loads on its own: one that fails or has nothing yet says "no data yet" and the rest still
 * show.
 */
import { useEffect, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { AdminMarketHealthDocument, AdminServiceStatsDocument } from '../../generated/graphql.ts';
import type { AdminMarketHealthQuery, AdminServiceStatsQuery } from '../../generated/graphql.ts';
import { BarChart, LineChart } from '../../shared/charts.tsx';
import type { Api } from './api.ts';
import { errorText } from './api.ts';
import { DataTable, ThresholdBars } from './charts.tsx';
import {
  bandLabel,
  clock,
  costBars,
  dayClock,
  formatDuration,
  PLAN_COLORS,
  perPlanSeries,
  planTotals,
  STALE_AFTER_SECONDS,
  totalSeries,
} from './logic.ts';

type MarketHealth = AdminMarketHealthQuery['marketHealth'] & { tracked: number };
type Stats = AdminServiceStatsQuery['serviceStats'];

const WINDOWS = [
  { minutes: 60, label: 'Last hour' },
  { minutes: 360, label: 'Last 6 hours' },
  { minutes: 1440, label: 'Last 24 hours' },
] as const;

type Loaded<T> = { state: 'loading' } | { state: 'ok'; data: T } | { state: 'error'; message: string };

export function Health(props: { api: Api }): JSX.Element {
  const [market, setMarket] = useState<Loaded<MarketHealth>>({ state: 'loading' });
  const [stats, setStats] = useState<Loaded<Stats>>({ state: 'loading' });
  const [minutes, setMinutes] = useState<number>(60);
  const [loadedAt, setLoadedAt] = useState<number | null>(null);

  const loadMarket = () =>
    props.api.call(AdminMarketHealthDocument, {}).then(
      (r) => setMarket({ state: 'ok', data: { ...r.marketHealth, tracked: r.coins.totalCount } }),
      (e: unknown) => setMarket({ state: 'error', message: errorText(e) }),
    );
  const loadStats = (m: number) =>
    props.api.call(AdminServiceStatsDocument, { minutes: m }).then(
      (r) => setStats({ state: 'ok', data: r.serviceStats }),
      (e: unknown) => setStats({ state: 'error', message: errorText(e) }),
    );
  const refresh = async () => {
    setMarket((s) => (s.state === 'ok' ? s : { state: 'loading' }));
    await Promise.all([loadMarket(), loadStats(minutes)]);
    setLoadedAt(Date.now());
  };
  useEffect(() => {
    void refresh();
  }, []);

  const busy = market.state === 'loading' || stats.state === 'loading';
  return (
    <div aria-busy={busy}>
      <div class="toolbar">
        <button type="button" class="secondary" onClick={() => void refresh()} disabled={busy}>
          Refresh health
        </button>
        <span class="muted" aria-live="polite">
          {loadedAt ? `Updated ${new Date(loadedAt).toISOString().slice(11, 19)} UTC` : 'Loading…'}
        </span>
      </div>
      <h3>Market data</h3>
      <MarketHealthView market={market} />
      <div class="panel-head">
        <h3>Requests</h3>
        <label class="inline">
          Window{' '}
          <select
            value={String(minutes)}
            onChange={(e) => {
              const m = Number(e.currentTarget.value);
              setMinutes(m);
              setStats({ state: 'loading' });
              void loadStats(m);
            }}
          >
            {WINDOWS.map((w) => (
              <option value={String(w.minutes)}>{w.label}</option>
            ))}
          </select>
        </label>
      </div>
      <StatsView stats={stats} />
    </div>
  );
}

function MarketHealthView(props: { market: Loaded<MarketHealth> }): JSX.Element {
  const m = props.market;
  if (m.state === 'loading') return <p class="muted">Loading the market data's health…</p>;
  if (m.state === 'error')
    return (
      <p role="note" class="chart-empty">
        Market data health: no data yet ({m.message})
      </p>
    );
  const h = m.data;
  const stale = h.sources.filter((s) => !s.fresh).length;
  const priced = h.confidence.reduce((n, b) => n + b.coins, 0);
  return (
    <div class="charts">
      <section class="chart-box" aria-labelledby="fresh-h" data-testid="chart-freshness">
        <h4 id="fresh-h">Ingestion freshness per source</h4>
        <p class="summary">
          {h.sources.length === 0
            ? 'No source has been polled yet.'
            : `${h.sources.length - stale} of ${h.sources.length} sources fresh${stale ? `, ${stale} stale` : ''}.`}{' '}
          {h.computedAt
            ? `Snapshot computed ${dayClock(Date.parse(h.computedAt))} UTC.`
            : 'No snapshot computed yet.'}
        </p>
        <ThresholdBars
          label="Age of each source's newest record, in minutes, against the 15-minute stale threshold"
          bars={h.sources.map((s) => ({
            label: s.name,
            value: s.ageSeconds === null ? null : s.ageSeconds / 60,
            ok: s.fresh,
            note: `${s.rejected.toLocaleString('en-US')} rejected`,
          }))}
          threshold={STALE_AFTER_SECONDS / 60}
          thresholdLabel="stale after 15 min"
          format={(v) => formatDuration(v * 60_000)}
          okLabel="fresh"
          badLabel="stale"
        />
        <DataTable
          caption="Sources"
          columns={[
            'Source',
            'Kind',
            'Newest record (UTC)',
            'Age',
            'Fresh',
            'Rejected records',
            'Failures',
            'Last error',
          ]}
          rows={h.sources.map((s) => [
            s.name,
            s.kind ?? '—',
            s.lastSeen ? dayClock(Date.parse(s.lastSeen)) : 'never',
            s.ageSeconds === null ? '—' : formatDuration(s.ageSeconds * 1000),
            s.fresh ? 'yes' : 'no',
            s.rejected.toLocaleString('en-US'),
            s.failures.toLocaleString('en-US'),
            s.lastError ?? '—',
          ])}
        />
      </section>
      <section class="chart-box" aria-labelledby="unverified-h" data-testid="chart-unverified">
        <h4 id="unverified-h">Coins with unverified supply</h4>
        <p class="big-number">
          <strong data-testid="unverified-count">{h.unverifiedSupply.length}</strong>{' '}
          <span>
            of {h.tracked.toLocaleString('en-US')} tracked coins lack two agreeing circulating-supply sources:
            their market cap is null.
          </span>
        </p>
        <BarChart
          label={`Tracked coins by supply verification: ${h.unverifiedSupply.length} unverified of ${h.tracked}`}
          bars={
            h.tracked === 0
              ? []
              : [
                  { label: 'unverified', value: h.unverifiedSupply.length, color: '#b35c00' },
                  {
                    label: 'verified',
                    value: Math.max(0, h.tracked - h.unverifiedSupply.length),
                    color: '#2f6fdb',
                  },
                ]
          }
        />
        {h.unverifiedSupply.length > 0 && (
          <details>
            <summary>The {h.unverifiedSupply.length} coins</summary>
            <ul class="coins">
              {h.unverifiedSupply.map((c) => (
                <li>
                  {c.name} <span class="muted">({c.symbol.toUpperCase()})</span>
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
      <section class="chart-box" aria-labelledby="confidence-h" data-testid="chart-confidence">
        <h4 id="confidence-h">Price confidence distribution</h4>
        <p class="summary">
          {priced.toLocaleString('en-US')} priced coins by the confidence of their aggregate price (0 low, 1
          high).
        </p>
        <BarChart
          label="Number of priced coins per price-confidence band"
          bars={h.confidence.map((b) => ({
            label: bandLabel(b.from, b.to),
            value: b.coins,
            color: b.from >= 0.6 ? '#2f6fdb' : b.from >= 0.4 ? '#b35c00' : '#c62828',
          }))}
        />
        <DataTable
          caption="Confidence bands"
          columns={['Band', 'Coins']}
          rows={h.confidence.map((b) => [bandLabel(b.from, b.to), b.coins])}
        />
      </section>
    </div>
  );
}

function StatsView(props: { stats: Loaded<Stats> }): JSX.Element {
  const s = props.stats;
  if (s.state === 'loading') return <p class="muted">Loading the request statistics…</p>;
  if (s.state === 'error')
    return (
      <p role="note" class="chart-empty" data-testid="stats-empty">
        Request statistics: no data yet ({s.message})
      </p>
    );
  const st = s.data;
  const from = Date.parse(st.from);
  const to = Date.parse(st.to);
  const rows = st.perPlan;
  const requests = perPlanSeries(rows, from, to, (r) => r.requests);
  const errors = perPlanSeries(rows, from, to, (r) => r.clientErrors + r.serverErrors);
  const refusals = [
    { name: '429 rate-limited', color: '#c62828', points: totalSeries(rows, from, to, (r) => r.rateLimited) },
    {
      name: '401 unauthorized',
      color: '#6b3fa0',
      points: totalSeries(rows, from, to, (r) => r.unauthorized),
    },
  ];
  const totals = planTotals(rows);
  const color = (plan: string) => PLAN_COLORS[plan] ?? '#222';
  const xFormat = to - from > 86_400_000 ? dayClock : clock;
  return (
    <div class="charts">
      <section class="chart-box" aria-labelledby="rate-h" data-testid="chart-requests">
        <h4 id="rate-h">Requests per minute, per plan</h4>
        <LineChart
          label="Requests per minute for each plan"
          series={requests.map((p) => ({ name: p.plan, color: color(p.plan), points: p.points }))}
          xFormat={xFormat}
        />
        <DataTable
          caption="Requests in the window, per plan"
          columns={['Plan', 'Requests', 'Errors (4xx/5xx)', '429', '401']}
          rows={totals.map((t) => [t.plan, t.requests, t.errors, t.rateLimited, t.unauthorized])}
        />
      </section>
      <section class="chart-box" aria-labelledby="errors-h" data-testid="chart-errors">
        <h4 id="errors-h">Errors per minute, per plan</h4>
        <p class="summary">Answers with a 4xx status (other than 401 and 429) or a 5xx status.</p>
        <LineChart
          label="Error answers per minute for each plan"
          series={errors.map((p) => ({ name: p.plan, color: color(p.plan), points: p.points }))}
          xFormat={xFormat}
        />
      </section>
      <section class="chart-box" aria-labelledby="refusals-h" data-testid="chart-refusals">
        <h4 id="refusals-h">Rate-limit hits and unauthorized requests</h4>
        <LineChart
          label="Requests refused per minute: 429 by the rate limit, 401 as unauthorized"
          series={refusals}
          xFormat={xFormat}
        />
      </section>
      <section class="chart-box" aria-labelledby="cost-h" data-testid="chart-cost">
        <h4 id="cost-h">Query cost distribution</h4>
        <p class="summary">GraphQL operations in the window by their estimated cost (docs/query-cost.md).</p>
        <BarChart
          label="Number of GraphQL operations per estimated-cost bucket"
          bars={st.costHistogram.every((b) => b.count === 0) ? [] : costBars(st.costHistogram)}
        />
        <DataTable
          caption="Cost buckets"
          columns={['Cost', 'Operations']}
          rows={costBars(st.costHistogram).map((b) => [b.range, b.value])}
        />
      </section>
    </div>
  );
}

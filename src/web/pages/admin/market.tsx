/// <reference lib="dom" />
/**
 * The market view: one coin's USD price chart and daily OHLC candles over a span the administrator picks
 * (1, 7, 30, 90 or 365 days), with the chart-granularity rule shown beside it (5-minute up to 2 days, hourly up to
 * 95 days, daily beyond: docs/methodology.md) and the resolution this chart actually has, measured from the spacing
 * of its points — so a rule that stopped holding would show here.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import {
  AdminCoinCandlesDocument,
  AdminCoinChartDocument,
  AdminCoinListDocument,
} from '../../generated/graphql.ts';
import type {
  AdminCoinCandlesQuery,
  AdminCoinChartQuery,
  AdminCoinListQuery,
} from '../../generated/graphql.ts';
import { CandleChart } from '../../shared/candles.tsx';
import type { Api } from './api.ts';
import { errorText } from './api.ts';
import { PriceLine } from './charts.tsx';
import {
  day,
  dayClock,
  expectedGranularity,
  formatDuration,
  formatPrice,
  GRANULARITY_RULES,
  measureGranularity,
  SPANS,
} from './logic.ts';

type CoinOption = AdminCoinListQuery['coins']['edges'][number]['node'];
type CoinMarket = NonNullable<AdminCoinChartQuery['coin']> & {
  candles: NonNullable<AdminCoinCandlesQuery['coin']>['candles'];
};

const DEFAULT_COIN = 'litecoin';
const spanLabel = (d: number) => (d === 1 ? '1 day' : `${d} days`);

export function Market(props: { api: Api }): JSX.Element {
  const [coins, setCoins] = useState<CoinOption[] | null>(null);
  const [coinId, setCoinId] = useState<string | null>(null);
  const [days, setDays] = useState<number>(7);
  const [data, setData] = useState<CoinMarket | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    props.api.call(AdminCoinListDocument, {}).then(
      (r) => {
        const list = r.coins.edges.map((e) => e.node);
        setCoins(list);
        setCoinId(list.some((c) => c.id === DEFAULT_COIN) ? DEFAULT_COIN : (list[0]?.id ?? null));
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, []);

  useEffect(() => {
    if (!coinId) return;
    const mine = ++seq.current;
    setLoading(true);
    // Two requests: together they would cost more than one request may (docs/query-cost.md).
    Promise.all([
      props.api.call(AdminCoinChartDocument, { id: coinId, days }),
      props.api.call(AdminCoinCandlesDocument, { id: coinId, days }),
    ]).then(
      ([chart, candles]) => {
        if (mine !== seq.current) return; // a newer pick is under way
        setData(chart.coin ? { ...chart.coin, candles: candles.coin?.candles ?? null } : null);
        setError(chart.coin ? null : `no coin ${coinId}`);
        setLoading(false);
      },
      (e: unknown) => {
        if (mine !== seq.current) return;
        setError(errorText(e));
        setLoading(false);
      },
    );
  }, [coinId, days]);

  const points = (data?.chart?.points ?? []).map((p) => ({ x: Date.parse(p.time), y: p.price }));
  const measured = measureGranularity(points.map((p) => p.x));
  const expected = expectedGranularity(days);
  const candles = (data?.candles ?? []).map((c) => ({ ...c, time: Date.parse(c.time) }));
  const name = data ? `${data.name} (${data.symbol.toUpperCase()})` : '';

  return (
    <div aria-busy={loading}>
      <div class="toolbar">
        <label class="inline" for="coin-pick">
          Coin
        </label>
        <select
          id="coin-pick"
          value={coinId ?? ''}
          disabled={!coins}
          onChange={(e) => setCoinId(e.currentTarget.value)}
        >
          {(coins ?? []).map((c) => (
            <option value={c.id}>
              {c.name} ({c.symbol.toUpperCase()})
            </option>
          ))}
        </select>
        <div role="group" aria-label="Span" class="spans">
          {SPANS.map((d) => (
            <button
              type="button"
              class="span"
              aria-pressed={d === days ? 'true' : 'false'}
              data-span={d}
              onClick={() => setDays(d)}
            >
              {d === 365 ? '1y' : `${d}d`}
              <span class="sr-only"> ({spanLabel(d)})</span>
            </button>
          ))}
        </div>
        <span class="muted" aria-live="polite">
          {loading ? 'Loading…' : data ? `${name}: ${spanLabel(days)}` : ''}
        </span>
      </div>
      {error && (
        <p role="alert" class="error">
          Could not load the chart: {error}
        </p>
      )}
      <div class="market">
        <section class="chart-box rules" aria-labelledby="rule-h">
          <h3 id="rule-h">Chart granularity rule</h3>
          <ol class="rule-list">
            {GRANULARITY_RULES.map((r) => {
              const active = r.granularity === expected;
              return (
                <li class={active ? 'active' : ''} aria-current={active ? 'true' : undefined}>
                  <strong>{r.granularity}</strong> points for spans {r.rule}
                  {active && <span class="pill"> ← {spanLabel(days)}</span>}
                </li>
              );
            })}
          </ol>
          <p
            class="resolution"
            data-testid="resolution"
            data-expected={expected}
            data-measured={measured.granularity ?? ''}
            data-points={measured.points}
          >
            {data === null ? (
              'No chart yet.'
            ) : measured.medianMs === null ? (
              `This chart has ${measured.points} point${measured.points === 1 ? '' : 's'}: too few to measure its spacing (rule: ${expected}).`
            ) : (
              <>
                This chart: {measured.points.toLocaleString('en-US')} points,{' '}
                {formatDuration(measured.medianMs)} apart (median) →{' '}
                <strong>{measured.granularity ?? 'no known resolution'}</strong>.{' '}
                {measured.granularity === expected
                  ? `As the rule says for ${spanLabel(days)}.`
                  : `The rule says ${expected} for ${spanLabel(days)}: the history may not reach that far back.`}
              </>
            )}
          </p>
        </section>
        <section class="chart-box" aria-labelledby="price-h" data-testid="chart-price">
          <h3 id="price-h">Price{name ? ` of ${name}` : ''}, USD</h3>
          {data && (
            <p class="summary">
              Now {formatPrice(data.price)} USD. The last point is the current value; the others are{' '}
              {measured.granularity ?? expected} bucket closes (UTC).
            </p>
          )}
          <PriceLine
            label={`${name || 'Coin'} price in USD over ${spanLabel(days)}, ${measured.granularity ?? expected} points`}
            points={data ? points : []}
            color="#2f6fdb"
            xFormat={days <= 2 ? dayClock : day}
            yFormat={(v) => formatPrice(v)}
            legend={`${data?.symbol.toUpperCase() ?? ''} / USD, one dot per point`}
          />
        </section>
        <section class="chart-box" aria-labelledby="candles-h" data-testid="chart-candles">
          <h3 id="candles-h">Daily candles (OHLC){name ? ` of ${name}` : ''}</h3>
          <p class="summary">One candle per UTC day: open, high, low and close in USD; the open day last.</p>
          <CandleChart
            label={`${name || 'Coin'} daily OHLC candles in USD over ${spanLabel(days)}`}
            candles={candles}
            priceFormat={(v) => formatPrice(v)}
          />
        </section>
      </div>
    </div>
  );
}

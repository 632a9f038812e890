/// <reference lib="dom" />
/** One key's requests per minute over the last hour: admitted, 429 and 401, as a line chart with refusal markers. */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { LineChart } from '../../shared/charts.tsx';
import { gql } from '../../shared/graph.ts';
import { PortalKeyUsageDocument } from '../../generated/graphql.ts';
import type { UsageMinute } from './logic.ts';
import { usageSummary, usageView } from './logic.ts';
import { clockTime, errorText } from './ui.tsx';

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ok'; usage: UsageMinute[] };

export function KeyUsage(props: { keyId: string; prefix: string; refresh: number }): JSX.Element {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    gql(PortalKeyUsageDocument, { id: props.keyId, minutes: 60 }).then(
      (r) => {
        if (live) setState({ kind: 'ok', usage: r.apiKey?.usage ?? [] });
      },
      (e: unknown) => {
        if (live) setState({ kind: 'error', message: errorText(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [props.keyId, props.refresh]);

  const headingId = `usage-h-${props.keyId}`;
  let body: JSX.Element;
  if (state.kind === 'loading') body = <p class="muted">Loading usage…</p>;
  else if (state.kind === 'error')
    body = (
      <p class="muted" data-testid="usage-unavailable">
        No data yet: usage could not be loaded ({state.message}).
      </p>
    );
  else {
    const view = usageView(state.usage, clockTime);
    body = view.empty ? (
      <p class="chart-empty" data-testid="usage-empty">
        No data yet.
      </p>
    ) : (
      <>
        <p class="muted" data-testid="usage-summary">
          {usageSummary(view.totals)}
        </p>
        <div data-testid="usage-chart">
          <LineChart
            label={`Requests per minute with key ${props.prefix}, last 60 minutes`}
            series={view.series}
            markers={view.markers}
            xFormat={clockTime}
            table={{ xLabel: 'Minute' }}
          />
        </div>
      </>
    );
  }
  return (
    <div class="usage" aria-labelledby={headingId} role="group" data-testid="usage">
      <h5 id={headingId}>Usage, last hour</h5>
      {body}
    </div>
  );
}

/// <reference lib="dom" />
/**
 * One key's usage: requests per minute over the last hour (admitted, 429 and 401, as a line chart with refusal
 * markers), and its usage per MCP tool and per trusted document over the last 30 days as a table (operations.ts).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { LineChart } from '../../shared/charts.tsx';
import { gql } from '../../shared/graph.ts';
import { PortalKeyUsageDocument } from '../../generated/graphql.ts';
import type { UsageMinute } from './logic.ts';
import { usageSummary, usageView } from './logic.ts';
import { OPERATION_DAYS, OPERATIONS_EMPTY, operationRows } from './operations.ts';
import type { KeyOperation } from './operations.ts';
import { clockTime, errorText } from './ui.tsx';

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ok'; usage: UsageMinute[]; operations: readonly KeyOperation[] };

/** The key's tools and documents over the last {@link OPERATION_DAYS} days, or the empty state. */
function Operations(props: { keyId: string; operations: readonly KeyOperation[] }): JSX.Element {
  const rows = operationRows(props.operations);
  const headingId = `operations-h-${props.keyId}`;
  return (
    <div class="operations-usage" role="group" aria-labelledby={headingId} data-testid="operations">
      <h5 id={headingId}>Tools and documents, last {OPERATION_DAYS} days</h5>
      {rows.length === 0 ? (
        <p class="chart-empty" data-testid="operations-empty">
          {OPERATIONS_EMPTY}
        </p>
      ) : (
        <div class="table-scroll">
          <table class="operations">
            <thead>
              <tr>
                <th scope="col">Operation</th>
                <th scope="col">Requests</th>
                <th scope="col">Errors</th>
                <th scope="col">Refusals</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} data-testid="operation-row">
                  <th scope="row" title={r.title}>
                    {r.label}
                    <span class="muted">{r.source}</span>
                  </th>
                  <td>{r.requests}</td>
                  <td>{r.errors}</td>
                  <td>{r.refusals}</td>
                  <td>{r.cost}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function KeyUsage(props: { keyId: string; prefix: string; refresh: number }): JSX.Element {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    gql(PortalKeyUsageDocument, { id: props.keyId, minutes: 60, days: OPERATION_DAYS }).then(
      (r) => {
        if (live)
          setState({ kind: 'ok', usage: r.apiKey?.usage ?? [], operations: r.apiKey?.operations ?? [] });
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
    body = (
      <>
        {view.empty ? (
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
        )}
        <Operations keyId={props.keyId} operations={state.operations} />
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

/** The load generator's side: one autocannon run against a variant, and the single request that probes it. */
import autocannon from 'autocannon';
import { CONNECTIONS } from './config.ts';

export interface Row {
  rps: number;
  /** Responses in the run. */
  total: number;
  /**
   * CPU ms per response of the gateway process, of the subgraphs process (embedded: one process, counted as
   * `gateway`) and of this process (autocannon).
   */
  cpu: { gateway: number; subgraphs: number; client: number };
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  mismatches: number;
}

/** A body with its cost budget's `remaining` blanked: the one figure that moves from one response to the next. */
const withoutRemaining = (body: string): string => body.replace(/"remaining":\d+/, '"remaining":-');

/** One autocannon run. A measured run with a non-2xx, a socket error or timeout, or an unexpected body aborts. */
export async function load(
  url: string,
  query: string,
  keys: string[],
  expectBody: string,
  duration: number,
  warmUp = false,
): Promise<Row> {
  let i = 0;
  let mismatches = 0;
  const expected = withoutRemaining(expectBody);
  const r = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    // 50 connections queue behind a few hundred responses a second: on a busy machine a tail above autocannon's
    // default 10 s timeout is queueing, not a lost request.
    timeout: 30,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'x-sp-api-key': keys[i++ % keys.length] as string },
        }),
        // Every response must be the exact body this variant answered before the run (autocannon's `expectBody`
        // does not combine with `requests`).
        onResponse: (_status, body) => {
          if (withoutRemaining(body) !== expected) mismatches++;
        },
      },
    ],
  });
  const row: Row = {
    rps: r.requests.average,
    total: r.requests.total,
    cpu: { gateway: 0, subgraphs: 0, client: 0 },
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    mismatches,
  };
  const bad = `${row.non2xx} non-2xx, ${row.errors} errors or timeouts, ${row.mismatches} unexpected bodies`;
  if (row.non2xx || row.errors || row.mismatches) {
    // A cold gateway under 50 connections on a busy machine may time out during warm-up: say so, go on.
    if (warmUp) console.log(`warm-up of ${url}: ${bad}`);
    else throw new Error(`${url}: ${bad}`);
  }
  return row;
}

/** One request; its body must be a 200 with data and no errors. Returns the raw body and the parsed data. */
export async function probe(
  url: string,
  query: string,
  key: string,
): Promise<{ body: string; data: unknown; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
    body: JSON.stringify({ query }),
  });
  const body = await res.text();
  const parsed = JSON.parse(body) as { data?: unknown; errors?: unknown[] };
  if (res.status !== 200 || parsed.errors || !parsed.data)
    throw new Error(`${url}: ${res.status} ${body.slice(0, 500)}`);
  return { body, data: parsed.data, headers: res.headers };
}

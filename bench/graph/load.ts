/** The load generator's side: one autocannon run against a variant (either workload), and the single request that probes it. */
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
  /** Responses whose data differ from the expected answer (varied: the reference variant's, for their variables). */
  mismatches: number;
  /** The varied workload: distinct bodies sent in the run. */
  distinct?: number;
}

/** A body with its cost budget's `remaining` blanked: the one figure that moves from one response to the next. */
const withoutRemaining = (body: string): string => body.replace(/"remaining":\d+/, '"remaining":-');

/** What one run sends and how its answers are checked. */
export type Traffic =
  /** The identical-body workload: this body every time; every response must be `expectBody` (bar `remaining`). */
  | { kind: 'identical'; body: string; expectBody: string }
  /**
   * The varied workload: `next()` gives each request's body; `check` sees every response with the body it answers;
   * mismatches are counted after the run (`Row.mismatches`), not fatal.
   */
  | { kind: 'varied'; next(): string; check(body: string, response: string): void };

/**
 * One autocannon run. An identical-body run with a non-2xx, a socket error or timeout, or an unexpected body aborts;
 * a varied run reports them in its row.
 */
export async function load(
  url: string,
  traffic: Traffic,
  keys: string[],
  duration: number,
  warmUp = false,
): Promise<Row> {
  let i = 0;
  let mismatches = 0;
  const expected = traffic.kind === 'identical' ? withoutRemaining(traffic.expectBody) : '';
  const key = (req: autocannon.Request) => ({
    ...req.headers,
    'x-sp-api-key': keys[i++ % keys.length] as string,
  });
  const r = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    // 50 connections queue behind a few hundred responses a second: on a busy machine a tail above autocannon's
    // default 10 s timeout is queueing, not a lost request.
    timeout: 30,
    headers: { 'content-type': 'application/json' },
    body: traffic.kind === 'identical' ? traffic.body : traffic.next(),
    requests: [
      traffic.kind === 'identical'
        ? {
            setupRequest: (req) => ({ ...req, headers: key(req) }),
            // Every response must be the exact body this variant answered before the run (autocannon's `expectBody`
            // does not combine with `requests`).
            onResponse: (_status, body) => {
              if (withoutRemaining(body) !== expected) mismatches++;
            },
          }
        : {
            // A body per request, kept in the connection's context (one request in flight per connection) for
            // `onResponse` to check the answer against.
            setupRequest: (req, context) => {
              const body = traffic.next();
              (context as { body?: string }).body = body;
              return { ...req, body, headers: key(req) };
            },
            onResponse: (_status, body, context) => traffic.check((context as { body: string }).body, body),
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
    if (warmUp || traffic.kind === 'varied') console.log(`${warmUp ? 'warm-up of ' : ''}${url}: ${bad}`);
    else throw new Error(`${url}: ${bad}`);
  }
  return row;
}

/** One request; its body must be a 200 with data and no errors. Returns the raw body and the parsed data. */
export async function probe(
  url: string,
  query: string,
  key: string,
  /** The request body as sent (the varied workload's, with variables); default `{ query }`. */
  requestBody = JSON.stringify({ query }),
): Promise<{ body: string; data: unknown; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
    body: requestBody,
  });
  const body = await res.text();
  const parsed = JSON.parse(body) as { data?: unknown; errors?: unknown[] };
  if (res.status !== 200 || parsed.errors || !parsed.data)
    throw new Error(`${url}: ${res.status} ${body.slice(0, 500)}`);
  return { body, data: parsed.data, headers: res.headers };
}

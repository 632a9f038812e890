/**
 * The live subscriptions of the soak benchmark: `n` streams held open, half over WebSocket (graphql-ws), half over
 * SSE (graphql-sse), each client used as its README shows. Each stream lives 20–90 s, then is closed and a new one
 * opened with other arguments (a `prices` of other coins or a `markets` of another size and currency), so that the
 * server opens and closes streams all through the run.
 */
import { createClient as createSse } from 'graphql-sse';
import { createClient as createWs } from 'graphql-ws';
import { WebSocket } from 'ws';
import type { Draw } from './traffic.ts';

export interface SubscriptionCounts {
  opened: number;
  events: number;
  errors: number;
  /** Streams whose closing had not finished 5 s after it was asked for. */
  stuck: number;
}

const sleep = (ms: number) => new Promise<false>((r) => setTimeout(() => r(false), ms));

function subscription(d: Draw): { query: string; variables: Record<string, unknown> } {
  const currency = d.pick(['usd', 'eur', 'btc']);
  if (d.r() < 0.6)
    return {
      query: 'subscription P($ids: [ID!]!, $c: String!) { prices(ids: $ids, currency: $c) { id price } }',
      variables: { ids: d.coins(d.int(1, 10)), c: currency },
    };
  return {
    query: 'subscription M($n: Int!, $c: String!) { markets(first: $n, currency: $c) { id price } }',
    variables: { n: d.int(5, 50), c: currency },
  };
}

/** Keeps `n` streams open until `signal` aborts; resolves with what they counted once all are closed. */
export async function holdSubscriptions(
  base: string,
  key: string,
  n: number,
  d: Draw,
  signal: AbortSignal,
): Promise<SubscriptionCounts> {
  const counts: SubscriptionCounts = { opened: 0, events: 0, errors: 0, stuck: 0 };
  const url = `${base}/graphql`;
  const loop = async (i: number) => {
    while (!signal.aborted) {
      const ws = i % 2 === 0;
      const client = ws
        ? createWs({
            url: url.replace('http:', 'ws:'),
            webSocketImpl: WebSocket,
            connectionParams: { 'x-sp-api-key': key },
          })
        : createSse({ url, headers: { 'x-sp-api-key': key } });
      const lifetime = d.int(20, 90) * 1000;
      const stop = AbortSignal.any([signal, AbortSignal.timeout(lifetime)]);
      counts.opened++;
      try {
        const it = client.iterate(subscription(d));
        const done = new Promise<void>((resolve) =>
          stop.addEventListener('abort', () => resolve(), { once: true }),
        );
        // Read events until the stream's lifetime ends, then close it (return() unsubscribes).
        for (;;) {
          const next = await Promise.race([it.next(), done.then(() => null)]);
          if (next === null || next.done) break;
          counts.events++;
        }
        // Closing waits for the client's own teardown, but never holds the loop (a stream that does not close in
        // 5 s is counted, and its client disposed of).
        if ((await Promise.race([Promise.resolve(it.return?.()).then(() => true), sleep(5000)])) !== true)
          counts.stuck++;
      } catch {
        counts.errors++;
        await sleep(1000);
      } finally {
        await Promise.race([client.dispose(), sleep(5000)]);
      }
    }
  };
  await Promise.all(Array.from({ length: n }, (_, i) => loop(i)));
  return counts;
}

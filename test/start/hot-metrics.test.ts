/**
 * The hand-kept per-request series (`src/start/hot-metrics.ts`) print exactly what prom-client's own Histogram and
 * Counter print for the same observations.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HotCounter, HotHistogram } from '../../src/start/hot-metrics.ts';

const observations: [string[], number][] = [
  [['GET', '/livez', '200'], 0.0004],
  [['GET', '/livez', '200'], 0.003],
  [['POST', '/graphql', '429'], 0.02],
  [['GET', '/livez', '200'], 7],
  [['POST', '/graphql', '200'], 0.25],
];
const labelNames = ['method', 'route', 'status'] as const;
const buckets = [0.001, 0.005, 0.05, 0.25, 1];
const lines = (text: string) => text.trim().split('\n').sort();

describe('hot metrics', () => {
  it('a histogram: the same buckets, sums and counts, labelled the same, part first', async () => {
    const [ours, theirs] = [new Registry(), new Registry()];
    for (const r of [ours, theirs]) r.setDefaultLabels({ part: 'router' });
    const hot = new HotHistogram(ours, { name: 'h', help: 'help', labelNames, buckets }, () => ({
      part: 'router',
    }));
    const stock = new Histogram({ name: 'h', help: 'help', labelNames, buckets, registers: [theirs] });
    for (const [[method, route, status], v] of observations) {
      hot.observe([method as string, route as string, status as string], v);
      stock.observe({ method, route, status } as never, v);
    }
    expect(lines(await ours.metrics())).toEqual(lines(await theirs.metrics()));
    expect(await ours.metrics()).toContain(
      'h_count{part="router",method="GET",route="/livez",status="200"} 3',
    );
  });

  it('a counter: the same counts per series', async () => {
    const [ours, theirs] = [new Registry(), new Registry()];
    const hot = new HotCounter(ours, { name: 'c_total', help: 'help', labelNames }, () => ({}));
    const stock = new Counter({ name: 'c_total', help: 'help', labelNames, registers: [theirs] });
    for (const [[method, route, status]] of observations) {
      hot.inc([method as string, route as string, status as string]);
      stock.inc({ method, route, status } as never);
    }
    expect(lines(await ours.metrics())).toEqual(lines(await theirs.metrics()));
  });
});

/**
 * The per-request series, kept by hand and served through prom-client's registry in its own format. prom-client's
 * `Histogram.observe` and `Counter.inc` check and hash their labels on every call: about 2 µs each, a few per cent of
 * an 80 µs request. Here a series is found by its label values joined in one string, and counted with plain numbers;
 * the work of formatting waits for a scrape.
 */
import type { Registry } from 'prom-client';

type Labels<L extends string> = Record<L, string>;

interface Series<L extends string> {
  labels: Labels<L>;
  /** Per bucket (histograms): observations up to that bound and above the one before. */
  buckets: number[];
  sum: number;
  count: number;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

abstract class HotMetric<L extends string> {
  protected readonly series = new Map<string, Series<L>>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'histogram' | 'counter',
    private readonly labelNames: readonly L[],
    /** The labels every series carries first (the process's `part`), as prom-client's default labels would. */
    private readonly shared: () => Record<string, string>,
    protected readonly bounds: readonly number[] = [],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  protected seriesOf(values: readonly string[]): Series<L> {
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) {
      const labels = {} as Labels<L>;
      this.labelNames.forEach((n, i) => (labels[n] = values[i] as string));
      s = { labels, buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    return s;
  }

  /** What prom-client's registry formats (the shape of its own metrics' `get()`). */
  get(): { name: string; help: string; type: string; aggregator: 'sum'; values: MetricValue[] } {
    const values: MetricValue[] = [];
    const shared = this.shared();
    for (const s of this.series.values()) {
      const labels = { ...shared, ...s.labels };
      if (this.type === 'counter') {
        values.push({ labels, value: s.count, metricName: this.name });
        continue;
      }
      let upTo = 0;
      this.bounds.forEach((le, i) => {
        upTo += s.buckets[i] as number;
        values.push({ labels: { le, ...labels }, value: upTo, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: 'sum', values };
  }

  reset(): void {
    this.series.clear();
  }
}

export class HotHistogram<L extends string> extends HotMetric<L> {
  constructor(
    registry: Registry,
    opts: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[] },
    shared: () => Record<string, string>,
  ) {
    super(opts.name, opts.help, 'histogram', opts.labelNames, shared, opts.buckets, registry);
  }

  /** One observation of the series with these label values (in `labelNames` order). */
  observe(values: readonly string[], value: number): void {
    const s = this.seriesOf(values);
    s.sum += value;
    s.count++;
    const i = this.bounds.findIndex((le) => value <= le);
    if (i !== -1) s.buckets[i] = (s.buckets[i] as number) + 1;
  }
}

export class HotCounter<L extends string> extends HotMetric<L> {
  constructor(
    registry: Registry,
    opts: { name: string; help: string; labelNames: readonly L[] },
    shared: () => Record<string, string>,
  ) {
    super(opts.name, opts.help, 'counter', opts.labelNames, shared, [], registry);
  }

  inc(values: readonly string[]): void {
    this.seriesOf(values).count++;
  }
}

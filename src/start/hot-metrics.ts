/**
 * The per-request series, kept by hand and served through prom-client's registry in its own format. prom-client's
 * `Histogram.observe` and `Counter.inc` check and hash their labels on every call: about 2 µs each, a few per cent of
 * an 80 µs request. Here a series is found by its label values, one map per label, and counted with plain numbers;
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

/** The series by their first label's value, then the next's… (a label-less metric: by the empty string). */
type SeriesTree<L extends string> = Map<string, SeriesTree<L> | Series<L>>;

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

abstract class HotMetric<L extends string> {
  /** Every series, in the order first seen. */
  protected readonly series: Series<L>[] = [];
  private tree: SeriesTree<L> = new Map();

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
    // One map per label, in order: each value (a route's pattern, a method, a status) is a string the process keeps,
    // whose hash V8 has already computed; a key joined per call would be a new string, hashed at each lookup.
    let at: SeriesTree<L> = this.tree;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      const v = values[i] as string;
      let next = at.get(v) as SeriesTree<L> | undefined;
      if (!next) at.set(v, (next = new Map()));
      at = next;
    }
    const leaf = values[last] ?? '';
    let s = at.get(leaf) as Series<L> | undefined;
    if (!s) {
      const labels = {} as Labels<L>;
      this.labelNames.forEach((n, i) => (labels[n] = values[i] as string));
      s = { labels, buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      at.set(leaf, s);
      this.series.push(s);
    }
    return s;
  }

  /** What prom-client's registry formats (the shape of its own metrics' `get()`). */
  get(): { name: string; help: string; type: string; aggregator: 'sum'; values: MetricValue[] } {
    const values: MetricValue[] = [];
    const shared = this.shared();
    for (const s of this.series) {
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
    this.series.length = 0;
    this.tree = new Map();
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
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++)
      if (value <= (bounds[i] as number)) {
        s.buckets[i] = (s.buckets[i] as number) + 1;
        return;
      }
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

import type { Metric, MetricValueWithName, Registry } from 'prom-client';

type Series = { labelValue: string; counts: Float64Array; sum: number; count: number; record: (value: number) => void };

// A histogram with one label whose observe() is arithmetic on plain numbers. prom-client's own
// Histogram validates and hashes the label set on every observation, which on the busiest path cost
// about as much as the rest of the request's metrics together. The registry renders this one from get(),
// so the exposition is the same text prom-client writes for its own (a test holds the two side by side).
export class OneLabelHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelName: string,
    buckets: readonly number[],
    registry: Registry,
  ) {
    this.#bounds = [...buckets].sort((a, b) => a - b);
    registry.registerMetric(this as unknown as Metric);
  }

  // The recorder for one label value, made once per value: calling it is the cheap part.
  series(labelValue: string): (value: number) => void {
    let series = this.#series.get(labelValue);
    if (series === undefined) {
      const s: Series = { labelValue, counts: new Float64Array(this.#bounds.length), sum: 0, count: 0, record: () => {} };
      const bounds = this.#bounds;
      s.record = (value) => {
        s.sum += value;
        s.count++;
        for (let i = 0; i < bounds.length; i++) {
          if (value <= (bounds[i] as number)) {
            (s.counts as Float64Array)[i]!++;
            return;
          }
        }
      };
      this.#series.set(labelValue, (series = s));
    }
    return series.record;
  }

  // The shape prom-client's registry reads from any metric (what its own Histogram.get() returns).
  async get(): Promise<{ name: string; help: string; type: string; values: MetricValueWithName<string>[]; aggregator: string }> {
    const values: MetricValueWithName<string>[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += s.counts[i] as number;
        values.push({ metricName: bucket, labels: { le, [this.labelName]: s.labelValue }, value: cumulative });
      });
      values.push({ metricName: bucket, labels: { le: '+Inf', [this.labelName]: s.labelValue }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels: { [this.labelName]: s.labelValue }, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: { [this.labelName]: s.labelValue }, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const s of this.#series.values()) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}

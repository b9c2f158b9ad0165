import { Counter, type Registry } from 'prom-client';

type Cell = { labels: Record<string, string>; count: number };

// A counter whose values live elsewhere (plain numbers, an engine's counters): reset and refilled from
// `read` at each scrape, so the hot path pays nothing.
export function counterReadAtScrape(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly string[],
  read: () => Array<[Record<string, string>, number]>,
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

// A counter whose hot path is a map lookup and an addition. prom-client's own inc() validates and hashes
// the label object on every call; here the totals are handed over at scrape time (collect), in the same
// exposition. Label values must come from bounded sets, as for any Prometheus label.
export class PlainCounter {
  readonly #labelNames: readonly string[];
  // Keyed by the label values joined; kept in first-seen order, as prom-client orders its series.
  readonly #cells = new Map<string, Cell>();

  constructor(registry: Registry, name: string, help: string, labelNames: readonly [string] | readonly [string, string]) {
    this.#labelNames = labelNames;
    const cells = this.#cells;
    counterReadAtScrape(registry, name, help, labelNames, () => Array.from(cells.values(), (cell) => [cell.labels, cell.count]));
  }

  // For a counter with one label, `second` is left out.
  inc(first: string, second = '', by = 1): void {
    const key = second === '' ? first : `${first}\u0000${second}`;
    const cell = this.#cells.get(key);
    if (cell !== undefined) {
      cell.count += by;
      return;
    }
    const [a, b] = this.#labelNames as [string, string | undefined];
    const labels: Record<string, string> = b === undefined ? { [a]: first } : { [a]: first, [b]: second };
    this.#cells.set(key, { labels, count: by });
  }
}

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

// A counter whose hot path is two map lookups and an addition. prom-client's own inc() validates and
// hashes the label object on every call; here the totals are handed over at scrape time (collect), in the
// same exposition. Keyed by each label value in turn, never by the values joined: a joined key is a new
// string each call, hashed anew, and dns requests count eight queries each. Label values must come from
// bounded sets, as for any Prometheus label.
export class PlainCounter {
  readonly #labelNames: readonly string[];
  readonly #cells = new Map<string, Map<string, Cell>>();
  // Every cell in first-seen order, as prom-client orders its series.
  readonly #ordered: Cell[] = [];

  constructor(registry: Registry, name: string, help: string, labelNames: readonly [string] | readonly [string, string]) {
    this.#labelNames = labelNames;
    const ordered = this.#ordered;
    counterReadAtScrape(registry, name, help, labelNames, () => ordered.map((cell) => [cell.labels, cell.count]));
  }

  // For a counter with one label, `second` is left out.
  inc(first: string, second = '', by = 1): void {
    this.cell(first, second).count += by;
  }

  // The series of these label values, to count on without a look-up: `count` is what it reports.
  cell(first: string, second = ''): { count: number } {
    let bySecond = this.#cells.get(first);
    if (bySecond === undefined) this.#cells.set(first, (bySecond = new Map()));
    const cell = bySecond.get(second);
    if (cell !== undefined) return cell;
    const [a, b] = this.#labelNames as [string, string | undefined];
    const labels: Record<string, string> = b === undefined ? { [a]: first } : { [a]: first, [b]: second };
    const made = { labels, count: 0 };
    bySecond.set(second, made);
    this.#ordered.push(made);
    return made;
  }
}

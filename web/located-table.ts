import { el } from './dom.js';

// A run from several locations: one row per location, its cells filled as that location's events arrive,
// and the verdict line once the stream's `locations` event came. The section shows it in place of its
// single-location output (live.css hides `.single` while the section has data-located).

export type RowState = 'running' | 'done' | 'failed';

export class LocatedTable {
  private readonly rows = new Map<string, HTMLTableRowElement>();

  constructor(
    private readonly section: HTMLElement,
    private readonly table: HTMLTableElement,
    private readonly verdict: HTMLElement,
    private readonly columns: readonly string[],
  ) {}

  // Every location asked gets its row at once, waiting for its first event.
  start(names: readonly string[]): void {
    this.section.dataset['located'] = 'true';
    this.verdict.textContent = '';
    delete this.verdict.dataset['verdict'];
    const head = el('tr');
    head.append(el('th', 'Location'), ...this.columns.map((c) => el('th', c)));
    const thead = el('thead');
    thead.append(head);
    const tbody = el('tbody');
    this.rows.clear();
    for (const name of names) {
      const row = el('tr');
      row.dataset['location'] = name;
      row.dataset['state'] = 'running';
      const th = el('th', name);
      th.scope = 'row';
      row.append(th, ...this.columns.map((c) => Object.assign(el('td', '…'), { title: c })));
      this.rows.set(name, row);
      tbody.append(row);
    }
    this.table.replaceChildren(thead, tbody);
  }

  // The section back to its single-location output.
  stop(): void {
    delete this.section.dataset['located'];
  }

  set(location: string, cells: Record<string, string>, state?: RowState): void {
    const row = this.rows.get(location);
    if (row === undefined) return;
    this.columns.forEach((column, i) => {
      const text = cells[column];
      if (text !== undefined) row.cells[i + 1]!.textContent = text;
    });
    if (state !== undefined) row.dataset['state'] = state;
  }

  conclude(text: string, good: boolean): void {
    this.verdict.textContent = text;
    this.verdict.dataset['verdict'] = good ? 'good' : 'bad';
  }
}

export const locationsText = (n: number): string => `${n} ${n === 1 ? 'location' : 'locations'}`;

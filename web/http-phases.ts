import type { HttpRedirect, HttpResult } from './client/index.js';
import { el } from './dom.js';
import { ms } from './ping-stats.js';

// An exchange's phases as the http check times them, each from the end of the one before, so that
// their bars laid side by side read as the exchange's time line; and a redirect followed as a table row.

type Timings = HttpResult['timings'];

const PHASES: ReadonlyArray<[keyof Timings, string]> = [
  ['resolveMs', 'Resolve'],
  ['connectMs', 'Connect'],
  ['tlsMs', 'TLS'],
  ['firstByteMs', 'First byte'],
  ['transferMs', 'Transfer'],
];

// One row per phase the exchange reached: its name, its time and a bar as wide as its share of the total.
export function phaseRows(timings: Timings): HTMLDivElement[] {
  const total = timings.totalMs;
  const rows = PHASES.filter(([key]) => timings[key] !== undefined).map(([key, name]) => phaseRow(name, timings[key] ?? 0, total));
  return [...rows, phaseRow('Total', total, total)];
}

function phaseRow(name: string, value: number, total: number): HTMLDivElement {
  const row = el('div', undefined, 'phase');
  row.dataset['phase'] = name;
  const bar = el('span', undefined, 'bar');
  // Percent of the total, so the bar never outgrows its box whatever the width of the page.
  bar.style.width = `${total > 0 ? Math.min(100, (value / total) * 100).toFixed(1) : '0'}%`;
  const track = el('span', undefined, 'track');
  track.append(bar);
  row.append(el('span', name, 'name'), el('span', `${ms(value)} ms`, 'value'), track);
  return row;
}

// The phases in a line of text, for a redirect's row: only those the exchange reached.
export function phasesText(timings: Timings): string {
  return PHASES.filter(([key]) => timings[key] !== undefined)
    .map(([key, name]) => `${name.toLowerCase()} ${ms(timings[key] ?? 0)}`)
    .join(', ');
}

export function hopRow(hop: HttpRedirect, index: number): HTMLTableRowElement {
  const row = el('tr');
  row.dataset['hop'] = String(index + 1);
  const cells: Array<[string, string]> = [
    ['#', String(index + 1)],
    ['Status', String(hop.status)],
    ['URL', hop.url],
    ['Location', hop.location],
    ['Address', hop.address],
    ['Phases (ms)', phasesText(hop.timings)],
    ['Total (ms)', ms(hop.timings.totalMs)],
  ];
  row.append(...cells.map(([label, text]) => Object.assign(el('td', text), { title: label })));
  return row;
}

export const HOP_COLUMNS = ['#', 'Status', 'URL', 'Location', 'Address', 'Phases (ms)', 'Total (ms)'];

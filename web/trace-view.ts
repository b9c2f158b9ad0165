import { byId, el, say } from './dom.js';
import { client, follow } from './api.js';
import type { TracerouteEvent, TracerouteHop } from './client/index.js';
import { LocatedTable } from './located-table.js';
import { chosenLocations } from './locations-picker.js';
import { TRACE_COLUMNS, traceFrom } from './trace-from.js';
import { traceVerdict } from './trace-verdict.js';

// The trace section, shown only when this server offers traceroute (its OpenAPI document lists the
// path): one list item per hop as its event arrives, then whether the trace reached its host. With
// locations chosen, one row per location instead (trace-from.ts).

export const TRACE_PATH = '/api/tools/traceroute';

export function startTraceView(): void {
  byId('trace').hidden = false;
  const form = byId<HTMLFormElement>('trace-form');
  const stop = byId<HTMLButtonElement>('trace-stop');
  const status = byId('trace-status');
  const located = new LocatedTable(byId('trace'), byId<HTMLTableElement>('trace-located'), byId('trace-located-verdict'), TRACE_COLUMNS);
  let running: AbortController | null = null;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (running !== null) return;
    const controller = (running = new AbortController());
    setRunning(true);
    const names = chosenLocations();
    if (names.length === 0) located.stop();
    const host = String(new FormData(form).get('host')).trim();
    void (names.length > 0 ? traceFrom(host, names, located, status, controller.signal) : run(host, status, controller.signal)).finally(() => {
      running = null;
      setRunning(false);
    });
  });
  stop.addEventListener('click', () => running?.abort());

  function setRunning(on: boolean): void {
    byId<HTMLButtonElement>('trace-run').disabled = on;
    stop.disabled = !on;
  }
}

async function run(host: string, status: HTMLElement, signal: AbortSignal): Promise<void> {
  const list = byId('trace-hops');
  list.replaceChildren();
  const verdict = byId('trace-verdict');
  verdict.textContent = '';
  delete verdict.dataset['verdict'];
  say(status, `Tracing the path to ${host}…`);
  const end = await follow(client.tracerouteStream({ host }, { signal }), (e) => onEvent(e, list, status, verdict));
  if (end !== null) say(status, end.text, end.kind);
}

function onEvent(e: TracerouteEvent, list: HTMLElement, status: HTMLElement, verdict: HTMLElement): void {
  if (e.event === 'hop') list.append(hopItem(e.data));
  else if (e.event === 'summary') {
    say(status, `Done in ${Math.round(e.data.durationMs)} ms.`);
    const { reached, text } = traceVerdict(e.data);
    verdict.textContent = text;
    verdict.dataset['verdict'] = reached ? 'reached' : 'not-reached';
  }
}

// The TTL is shown once, as text that is copied with the line; the list's own numbers are off in live.css.
function hopItem(hop: TracerouteHop): HTMLLIElement {
  const item = el('li');
  item.value = hop.ttl;
  item.append(el('span', String(hop.ttl), 'ttl'));
  const name = hop.name !== undefined ? ` (${hop.name})` : '';
  const probes = hop.probes.map((p) => ('status' in p ? '*' : `${p.address} ${p.rttMs} ms${p.icmp.name ? ` ${p.icmp.name}` : ''}`));
  item.append(' ', el('span', probes.join('   ') + name, 'hop')); // the space: copied text keeps the TTL apart
  return item;
}

import { byId, el, say } from './dom.js';
import { client, follow } from './api.js';
import type { TracerouteEvent, TracerouteHop } from './client/index.js';
import { wireSection } from './run-form.js';
import { TRACE_COLUMNS, traceFrom } from './trace-from.js';
import { traceVerdict } from './trace-verdict.js';

// The trace section, shown only when this server offers traceroute (its OpenAPI document lists the
// path): one list item per hop as its event arrives, then whether the trace reached its host. With
// locations chosen, one row per location instead (trace-from.ts).

export const TRACE_PATH = '/api/tools/traceroute';

export function startTraceView(): void {
  byId('trace').hidden = false;
  wireSection<string>({ id: 'trace', columns: TRACE_COLUMNS, request: (fields) => String(fields.get('host')).trim(), here: run, from: traceFrom });
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

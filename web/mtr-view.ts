import { byId, el, say } from './dom.js';
import { client, follow } from './api.js';
import type { Here, MtrEvent, MtrHop, MtrRequest, MtrResult } from './client/index.js';
import { MTR_COLUMNS, mtrFrom } from './mtr-from.js';
import { wireSection } from './run-form.js';

// The mtr section, shown only when this server offers mtr (its OpenAPI document lists the path): the
// table mtr's live view shows, redrawn after every cycle from the figures the cycle event carries, then
// whether the path reached its host. With locations chosen, one row per location instead (mtr-from.ts).

export const MTR_PATH = '/api/tools/mtr';

const COLUMNS = ['Hop', 'Host', 'AS', 'Loss%', 'Snt', 'Last', 'Avg', 'Best', 'Wrst', 'StDev'];

export function startMtrView(): void {
  byId('mtr').hidden = false;
  wireSection<Here<MtrRequest>>({ id: 'mtr', columns: MTR_COLUMNS, request: mtrRequest, here: run, from: mtrFrom });
}

function mtrRequest(fields: FormData): Here<MtrRequest> {
  return { host: String(fields.get('host')).trim(), cycles: Number(fields.get('cycles')), asn: fields.get('asn') !== null };
}

async function run(request: Here<MtrRequest>, status: HTMLElement, signal: AbortSignal): Promise<void> {
  const verdict = byId('mtr-verdict');
  byId('mtr-table').replaceChildren();
  verdict.textContent = '';
  delete verdict.dataset['verdict'];
  say(status, `Probing the path to ${request.host}…`);
  const end = await follow(client.mtrStream(request, { signal }), (e) => onEvent(e, request, status, verdict));
  if (end !== null) say(status, end.text, end.kind);
}

function onEvent(e: MtrEvent, request: MtrRequest, status: HTMLElement, verdict: HTMLElement): void {
  if (e.event === 'start') return;
  const asn = request.asn === true;
  if (e.event === 'cycle') {
    drawTable(e.data.hops, asn);
    return say(status, `Cycle ${e.data.cycle} of ${request.cycles ?? 10}…`);
  }
  drawTable(e.data.hops, asn);
  say(status, `Done: ${e.data.cycles} cycles in ${Math.round(e.data.durationMs)} ms.`);
  verdict.textContent = mtrVerdict(e.data);
  verdict.dataset['verdict'] = e.data.destinationReached ? 'reached' : 'not-reached';
}

// One row per hop, as mtr prints them; the AS column only when it was asked for.
function drawTable(hops: readonly MtrHop[], asn: boolean): void {
  const head = el('tr');
  for (const title of COLUMNS) if (asn || title !== 'AS') head.append(el('th', title));
  const body = el('tbody');
  for (const hop of hops) body.append(hopRow(hop, asn));
  const thead = el('thead');
  thead.append(head);
  byId('mtr-table').replaceChildren(thead, body);
}

const ms = (v: number | null) => (v === null ? '–' : v.toFixed(1));

function hopRow(hop: MtrHop, asn: boolean): HTMLTableRowElement {
  const row = el('tr');
  const hosts = hop.addresses.map((a) => (a.name === undefined ? a.address : `${a.name} (${a.address})`));
  const ases = hop.addresses.map((a) => (a.asn === undefined ? '?' : `AS${a.asn.number}`));
  const cells = [String(hop.ttl), hosts.join(', ') || '???', ...(asn ? [ases.join(', ') || '–'] : [])];
  const figures = [`${hop.lossPercent.toFixed(1)}%`, String(hop.sent), ms(hop.lastMs), ms(hop.avgMs), ms(hop.bestMs), ms(hop.worstMs), ms(hop.stddevMs)];
  for (const text of cells) row.append(el('td', text));
  for (const text of figures) row.append(el('td', text, 'figure'));
  return row;
}

function mtrVerdict(s: MtrResult): string {
  const target = s.host === s.address ? s.address : `${s.host} (${s.address})`;
  const hops = `${s.hops.length} ${s.hops.length === 1 ? 'hop' : 'hops'}`;
  return s.destinationReached ? `Reached ${target} in ${hops}.` : `Not reached: no answer from ${target} within ${hops}.`;
}

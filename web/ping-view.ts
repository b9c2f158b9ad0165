import { byId, say } from './dom.js';
import { PingChart } from './ping-chart.js';
import { ms, percent, PingStats } from './ping-stats.js';
import { client, follow } from './api.js';
import type { PingEvent } from './client/index.js';
import { LocatedTable } from './located-table.js';
import { chosenLocations } from './locations-picker.js';
import { PING_COLUMNS, pingFrom } from './ping-from.js';

// The ping section: host, count and interval; each echo drawn as its event arrives; figures kept live.
// With locations chosen, one row per location instead (ping-from.ts).

export function startPingView(): void {
  const form = byId<HTMLFormElement>('ping-form');
  const stop = byId<HTMLButtonElement>('ping-stop');
  const status = byId('ping-status');
  const chart = new PingChart(byId('ping-chart') as unknown as SVGSVGElement);
  const located = new LocatedTable(byId('ping'), byId<HTMLTableElement>('ping-located'), byId('ping-located-verdict'), PING_COLUMNS);
  let running: AbortController | null = null;

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (running !== null) return;
    running = new AbortController();
    setRunning(true);
    const names = chosenLocations();
    if (names.length === 0) located.stop();
    const body = request(form);
    const done = names.length > 0 ? pingFrom(body, names, located, status, running.signal) : run(body, chart, status, running.signal);
    void done.finally(() => {
      running = null;
      setRunning(false);
    });
  });
  stop.addEventListener('click', () => running?.abort());

  function setRunning(on: boolean): void {
    byId<HTMLButtonElement>('ping-run').disabled = on;
    stop.disabled = !on;
  }
}

function request(form: HTMLFormElement): { host: string; count: number; intervalMs: number } {
  const fields = new FormData(form);
  return { host: String(fields.get('host')).trim(), count: Number(fields.get('count')), intervalMs: Number(fields.get('interval')) };
}

async function run(body: { host: string; count: number; intervalMs: number }, chart: PingChart, status: HTMLElement, signal: AbortSignal): Promise<void> {
  const count = body.count;
  const stats = new PingStats();
  chart.reset(count);
  showFigures(stats);
  say(status, `Pinging ${body.host}…`);
  const end = await follow(client.pingStream(body, { signal }), (e) => onEvent(e, chart, stats, status));
  if (end !== null) say(status, end.text, end.kind);
}

function onEvent(e: PingEvent, chart: PingChart, stats: PingStats, status: HTMLElement): void {
  if (e.event === 'start') {
    chart.reset(e.data.count);
    say(status, `Pinging ${e.data.host} (${e.data.address}), ${e.data.count} echoes every ${e.data.intervalMs} ms…`);
  } else if (e.event === 'reply') {
    chart.add(e.data);
    stats.add(e.data);
    showFigures(stats);
  } else if (e.event === 'summary') {
    // The host again, whole (live.css wraps it): the field above may show only part of a long name.
    const target = e.data.host === e.data.address ? e.data.host : `${e.data.host} (${e.data.address})`;
    say(status, `Done: ${target} answered ${e.data.packets.received} of ${e.data.packets.sent} echoes.`);
  }
}

function showFigures(stats: PingStats): void {
  const f = stats.figures();
  byId('ping-sent').textContent = String(f.sent);
  byId('ping-min').textContent = ms(f.minMs);
  byId('ping-avg').textContent = ms(f.avgMs);
  byId('ping-max').textContent = ms(f.maxMs);
  byId('ping-loss').textContent = percent(f.lossPercent);
}

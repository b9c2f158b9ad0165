import { escapeXml } from '../lib/svg';
import type { Sample, SoakResult } from './types';

// One SVG with five panels over time (RSS, V8's young generation, open fds, requests/s, event-loop delay)
// and the fault windows shaded behind them; the warm-up is greyed.

const W = 900;
const PANEL_H = 130;
const M = { top: 60, right: 20, bottom: 40, left: 80, gap: 28 };
const FAULT_COLOURS: Record<string, string> = { 'resolver-paused': '#fbd38d', 'icmp-target-silent': '#bee3f8' };

interface Panel {
  title: string;
  value: (s: Sample) => number | null;
  format: (v: number) => string;
}

export function renderSoakChart(r: SoakResult): string {
  const panels: Panel[] = [
    { title: 'server RSS (MiB)', value: (s) => (s.rssKiB === null ? null : s.rssKiB / 1024), format: (v) => v.toFixed(0) },
    { title: "V8's young generation (MiB): resized by allocation rate, RSS follows it", value: (s) => (s.youngGenerationKiB === null ? null : s.youngGenerationKiB / 1024), format: (v) => v.toFixed(0) },
    { title: 'open file descriptors', value: (s) => s.fds, format: (v) => v.toFixed(0) },
    { title: 'requests completed per second', value: (s) => s.requests, format: (v) => v.toFixed(0) },
    { title: 'event-loop delay, p99 over each second (ms; prom-client measures in 10 ms steps)', value: (s) => s.loopLagP99Ms, format: (v) => v.toFixed(1) },
  ];
  const H = M.top + panels.length * (PANEL_H + M.gap) + M.bottom;
  const tMax = Math.max(1, ...r.samples.map((s) => s.t));
  const x = (t: number) => M.left + (t / tMax) * (W - M.left - M.right);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  const title = `soak: ${r.minutes} min of mixed load with faults, ${r.totals.requests.toLocaleString('en-US')} requests (${r.totals.perSecond.toFixed(0)}/s)`;
  out.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`);
  const legend = `${r.verdict.ok ? 'passed' : 'FAILED'}; shaded: resolver paused (orange), ICMP target silent (blue), warm-up (grey); ${r.finishedAt}`;
  out.push(`<text x="${W / 2}" y="38" text-anchor="middle" fill="#4a5568">${escapeXml(legend)}</text>`);

  panels.forEach((panel, i) => {
    const top = M.top + i * (PANEL_H + M.gap);
    const bottom = top + PANEL_H;
    const values = r.samples.map(panel.value).filter((v): v is number => v !== null);
    const hi = niceMax(values.length ? Math.max(...values) : 1);
    const y = (v: number) => bottom - (Math.max(0, v) / hi) * PANEL_H;
    out.push(`<rect x="${x(0)}" y="${top}" width="${x(r.warmupS) - x(0)}" height="${PANEL_H}" fill="#edf2f7"/>`);
    for (const w of faultWindows(r.samples)) {
      const colour = FAULT_COLOURS[w.name];
      if (colour) out.push(`<rect x="${x(w.from).toFixed(1)}" y="${top}" width="${(x(w.to) - x(w.from)).toFixed(1)}" height="${PANEL_H}" fill="${colour}" opacity="0.6"/>`);
    }
    for (let k = 0; k <= 4; k++) {
      const v = (hi * k) / 4;
      out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e2e8f0"/>`);
      out.push(`<text x="${M.left - 6}" y="${y(v).toFixed(1)}" text-anchor="end" dominant-baseline="middle" fill="#4a5568">${escapeXml(panel.format(v))}</text>`);
    }
    const pts = r.samples.flatMap((s) => {
      const v = panel.value(s);
      return v === null ? [] : [`${x(s.t).toFixed(1)},${y(v).toFixed(1)}`];
    });
    out.push(`<polyline fill="none" stroke="#2b6cb0" stroke-width="1.2" points="${pts.join(' ')}"/>`);
    out.push(`<text x="${M.left}" y="${top - 6}" font-weight="bold">${escapeXml(panel.title)}</text>`);
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${bottom}" y2="${bottom}" stroke="#4a5568"/>`);
  });
  const axisY = M.top + panels.length * (PANEL_H + M.gap) - M.gap + 16;
  const step = tMax >= 600 ? niceMax(tMax / 60 / 6) * 60 : niceMax(tMax / 6);
  for (let t = 0; t <= tMax; t += step) {
    out.push(`<text x="${x(t).toFixed(1)}" y="${axisY}" text-anchor="middle" fill="#4a5568">${escapeXml(formatTime(t))}</text>`);
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}

// Consecutive seconds under one fault become one shaded span (seconds t-1..t for a sample at t).
function faultWindows(samples: Sample[]): Array<{ name: string; from: number; to: number }> {
  const open = new Map<string, { from: number; to: number }>();
  const out: Array<{ name: string; from: number; to: number }> = [];
  for (const s of samples) {
    for (const [name, w] of open) {
      if (!s.faults.includes(name) || s.t - 1 > w.to) {
        out.push({ name, ...w });
        open.delete(name);
      }
    }
    for (const name of s.faults) {
      const w = open.get(name);
      if (w) w.to = s.t;
      else open.set(name, { from: s.t - 1, to: s.t });
    }
  }
  for (const [name, w] of open) out.push({ name, ...w });
  return out;
}

function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  const f = v / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

function formatTime(t: number): string {
  return t >= 120 ? `${Math.round(t / 60)} min` : `${Math.round(t)} s`;
}

// A small grouped-bar-chart writer: static SVG text, no browser, no dependencies.

export interface Series {
  name: string;
  values: Array<number | null>; // one per category; null draws "n/a" instead of a bar
}

export interface BarChart {
  title: string;
  subtitle?: string;
  categories: string[];
  series: Series[];
  yLabel: string;
  scale: 'linear' | 'log';
  format: (value: number) => string;
}

const PALETTE = ['#2b6cb0', '#c05621', '#718096', '#2f855a', '#6b46c1'];
const W = 760;
const H = 380;
const M = { top: 70, right: 20, bottom: 50, left: 80 };

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

interface Axis {
  ticks: number[];
  y(value: number): number; // pixel y of a value inside the plot
}

// Linear: 0 to a round maximum in 5 steps. Log: whole decades around the data.
export function axisFor(values: number[], scale: BarChart['scale'], top: number, bottom: number): Axis {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (scale === 'log') {
    const lo = Math.floor(Math.log10(positive.length ? Math.min(...positive) : 1));
    let hi = Math.ceil(Math.log10(positive.length ? Math.max(...positive) : 10));
    if (hi <= lo) hi = lo + 1;
    const ticks: number[] = [];
    for (let e = lo; e <= hi; e++) ticks.push(10 ** e);
    const y = (v: number) => bottom - ((Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo)) * (bottom - top);
    return { ticks, y };
  }
  const max = positive.length ? Math.max(...positive) : 1;
  const step = niceStep(max / 5);
  const ticks: number[] = [];
  for (let t = 0; t <= max + step * 0.999; t += step) ticks.push(t);
  const last = ticks[ticks.length - 1] as number;
  return { ticks, y: (v: number) => bottom - (Math.max(0, v) / last) * (bottom - top) };
}

function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

export function renderBarChart(chart: BarChart): string {
  const plot = { x0: M.left, x1: W - M.right, y0: M.top, y1: H - M.bottom };
  const all = chart.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const axis = axisFor(all, chart.scale, plot.y0, plot.y1);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(chart.title)}</text>`);
  if (chart.subtitle) out.push(`<text x="${W / 2}" y="37" text-anchor="middle" fill="#4a5568">${escapeXml(chart.subtitle)}</text>`);

  // Legend, one entry per series.
  let lx = plot.x0;
  chart.series.forEach((s, i) => {
    out.push(`<rect x="${lx}" y="48" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/>`);
    out.push(`<text x="${lx + 14}" y="57">${escapeXml(s.name)}</text>`);
    lx += 24 + s.name.length * 6.2;
  });

  for (const t of axis.ticks) {
    const y = axis.y(t).toFixed(1);
    out.push(`<line x1="${plot.x0}" x2="${plot.x1}" y1="${y}" y2="${y}" stroke="#e2e8f0"/>`);
    out.push(`<text x="${plot.x0 - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#4a5568">${escapeXml(chart.format(t))}</text>`);
  }
  out.push(`<text transform="translate(16 ${(plot.y0 + plot.y1) / 2}) rotate(-90)" text-anchor="middle" fill="#4a5568">${escapeXml(chart.yLabel)}</text>`);

  const groupW = (plot.x1 - plot.x0) / Math.max(1, chart.categories.length);
  const barW = Math.min(48, (groupW * 0.8) / Math.max(1, chart.series.length));
  chart.categories.forEach((cat, c) => {
    const gx = plot.x0 + c * groupW + (groupW - barW * chart.series.length) / 2;
    out.push(`<text x="${(plot.x0 + c * groupW + groupW / 2).toFixed(1)}" y="${plot.y1 + 18}" text-anchor="middle">${escapeXml(cat)}</text>`);
    chart.series.forEach((s, i) => {
      const v = s.values[c] ?? null;
      const x = gx + i * barW;
      const cx = (x + barW / 2).toFixed(1);
      if (v === null) {
        out.push(`<text x="${cx}" y="${plot.y1 - 4}" text-anchor="middle" fill="#a0aec0">n/a</text>`);
        return;
      }
      const y = axis.y(v);
      out.push(`<rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(plot.y1 - y).toFixed(1)}" fill="${PALETTE[i % PALETTE.length]}"><title>${escapeXml(`${s.name} ${cat}: ${chart.format(v)}`)}</title></rect>`);
      out.push(`<text x="${cx}" y="${(y - 3).toFixed(1)}" text-anchor="middle" font-size="9">${escapeXml(chart.format(v))}</text>`);
    });
  });
  out.push(`<line x1="${plot.x0}" x2="${plot.x1}" y1="${plot.y1}" y2="${plot.y1}" stroke="#2d3748"/>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}

import { svg } from './dom.js';
import type { Echo } from './ping-stats.js';

// The round trips as an SVG scatter: x is the echo's sequence number over the run's count, y its RTT
// over the largest RTT so far (the scale grows as larger ones come, and every point moves with it).
// A lost echo is a cross on the baseline, in another colour and shape, so it reads without colour too.

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };
// The smallest y range: loopback round trips are tens of microseconds.
const FLOOR_MS = 0.1;

export class PingChart {
  private readonly plot: SVGGElement;
  private readonly axis: SVGGElement;
  private count = 1;
  private top = FLOOR_MS; // the y axis' top, ms
  private readonly echoes: Echo[] = [];

  constructor(private readonly root: SVGSVGElement) {
    root.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
    this.axis = svg('g', { class: 'axis' });
    this.plot = svg('g', { class: 'points' });
    root.replaceChildren(this.axis, this.plot);
  }

  reset(count: number): void {
    this.count = Math.max(1, count);
    this.top = FLOOR_MS;
    this.echoes.length = 0;
    this.plot.replaceChildren();
    this.drawAxis();
  }

  add(echo: Echo): void {
    this.echoes.push(echo);
    const rtt = echo.rttMs ?? 0;
    if (rtt > this.top) {
      this.top = niceCeiling(rtt);
      this.drawAxis();
      this.plot.replaceChildren(...this.echoes.map((e) => this.mark(e)));
    } else {
      this.plot.append(this.mark(echo));
    }
    this.root.setAttribute('aria-label', `Round-trip times of ${this.echoes.length} echoes so far`);
  }

  private x(seq: number): number {
    const span = WIDTH - PAD.left - PAD.right;
    return PAD.left + (this.count === 1 ? span / 2 : (span * seq) / (this.count - 1));
  }

  private y(rttMs: number): number {
    return HEIGHT - PAD.bottom - ((HEIGHT - PAD.top - PAD.bottom) * rttMs) / this.top;
  }

  private mark(echo: Echo): SVGElement {
    const x = this.x(echo.seq);
    const label = svg('title', {});
    if (echo.status === 'reply' && echo.rttMs !== undefined) {
      const dot = svg('circle', { class: 'rtt', cx: x, cy: this.y(echo.rttMs), r: 4, 'data-seq': echo.seq });
      label.textContent = `echo ${echo.seq}: ${echo.rttMs} ms`;
      dot.append(label);
      return dot;
    }
    const y = HEIGHT - PAD.bottom;
    const cross = svg('path', { class: 'lost', d: `M${x - 5} ${y - 5}l10 10m0 -10l-10 10`, 'data-seq': echo.seq });
    label.textContent = `echo ${echo.seq}: ${echo.status}`;
    cross.append(label);
    return cross;
  }

  private drawAxis(): void {
    const left = PAD.left;
    const bottom = HEIGHT - PAD.bottom;
    const lines: SVGElement[] = [svg('path', { d: `M${left} ${PAD.top}V${bottom}H${WIDTH - PAD.right}` })];
    for (const tick of [0, this.top / 2, this.top]) {
      const label = svg('text', { x: left - 6, y: this.y(tick) + 4, 'text-anchor': 'end' });
      label.textContent = `${Number(tick.toPrecision(3))} ms`;
      lines.push(label);
    }
    const seqLabel = svg('text', { x: WIDTH - PAD.right, y: HEIGHT - 8, 'text-anchor': 'end' });
    seqLabel.textContent = `echo ${this.count - 1}`;
    const zero = svg('text', { x: left, y: HEIGHT - 8 });
    zero.textContent = 'echo 0';
    this.axis.replaceChildren(...lines, zero, seqLabel);
  }
}

// 1, 2 or 5 times a power of ten, at or above the value: round axis labels.
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

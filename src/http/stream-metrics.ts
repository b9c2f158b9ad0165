import { Gauge, type Registry } from 'prom-client';
import { PlainCounter } from '../observability/plain-counter';

// Streamed tool responses in /metrics, by tool: how many are open, the events they sent, and the streams
// cut off because their reader stopped reading. Tool names come from the registry: a bounded set.
export class StreamMetrics {
  private readonly open = new Map<string, number>();
  private readonly events: PlainCounter;
  private readonly cut: PlainCounter;

  constructor(registry: Registry) {
    const open = this.open;
    new Gauge({
      name: 'nettools_streams_open',
      help: 'Streamed tool responses open now, by tool.',
      labelNames: ['tool'],
      registers: [registry],
      collect() {
        for (const [tool, count] of open) this.set({ tool }, count);
      },
    });
    this.events = new PlainCounter(registry, 'nettools_stream_events_total', 'Events sent on streamed tool responses, by tool.', ['tool']);
    this.cut = new PlainCounter(registry, 'nettools_streams_cut_off_total', 'Streamed tool responses cut off because more than 256 KiB waited for their reader, by tool.', ['tool']);
  }

  opened(tool: string): void {
    this.open.set(tool, (this.open.get(tool) ?? 0) + 1);
  }

  closed(tool: string): void {
    this.open.set(tool, (this.open.get(tool) ?? 1) - 1);
  }

  // A stream's count of the events it sent, held by the stream: one event is one addition.
  eventsSent(tool: string): { count: number } {
    return this.events.cell(tool);
  }

  cutOff(tool: string): void {
    this.cut.inc(tool);
  }
}

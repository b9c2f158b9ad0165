import { LinkedList } from '../util/linked-list';

// The streams this server has open. A streamed ping may run for an hour: a shutdown ends each one with a
// `problem` event inside the grace period rather than waiting for it, or cutting it off mid-line.
export class OpenStreams {
  private readonly stops = new LinkedList<() => void>();

  // `stop` ends the stream; the returned function forgets it (the stream ended by itself).
  add(stop: () => void): () => void {
    const node = this.stops.push(stop);
    return () => void this.stops.remove(node);
  }

  get size(): number {
    return this.stops.size;
  }

  // Each stream's `stop`, once; the streams opened afterwards are not stopped here.
  stopAll(): void {
    for (const stop of this.stops.drain()) stop();
  }
}

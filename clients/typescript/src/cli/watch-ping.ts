import type { NettoolsClient } from '../client.js';
import type { Here, PingEvent, PingRequest } from '../types.js';
import { partialPing, pingFailure, pingHeader, pingStatistics, PingTally, replyLine } from './format-ping.js';
import { verdict } from './refused.js';
import { watch, type WatchCommand, type WatchIo, type Watcher } from './watch.js';

type Start = Extract<PingEvent, { event: 'start' }>['data'];

// `nettools ping HOST --watch`: each echo's line as its outcome is decided, then ping's statistics; on
// Ctrl-C the statistics of the echoes decided so far, judged as a finished measurement would be.
export function watchPing(client: NettoolsClient, request: Here<PingRequest>, cmd: WatchCommand, io: WatchIo): Promise<number> {
  return watch((signal) => client.pingStream(request, { signal }), cmd, io, pingWatcher(cmd, io));
}

// The same, event by event: what the command prints of each, for one stream or one location's part of it.
export function pingWatcher(cmd: WatchCommand, io: WatchIo): Watcher<PingEvent> {
  let start: Start | null = null;
  let startedAt = Date.now();
  const tally = new PingTally();
  const text = (lines: string[]) => (cmd.json ? undefined : lines.forEach((l) => io.out(l)));
  return {
    event(e) {
      if (e.event === 'start') {
        start = e.data;
        startedAt = Date.now();
        return text([pingHeader(e.data.host, e.data.address, cmd.server)]), null;
      }
      if (e.event === 'reply') {
        tally.add(e.data);
        return text([replyLine(e.data, start?.address ?? '?')]), null;
      }
      text(['', ...pingStatistics(e.data)]);
      return verdict(pingFailure(e.data), io);
    },
    interrupted() {
      if (start === null || tally.sent === 0) return verdict('interrupted before any echo was decided', io);
      const partial = partialPing(start, tally, Date.now() - startedAt);
      text(['', ...pingStatistics(partial)]);
      return verdict(pingFailure(partial), io);
    },
  };
}

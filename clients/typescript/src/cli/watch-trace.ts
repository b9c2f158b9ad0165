import type { NettoolsClient } from '../client.js';
import type { Here, TracerouteEvent, TracerouteRequest } from '../types.js';
import { hopLine, traceFailure, traceHeader } from './format-trace.js';
import { verdict } from './refused.js';
import { watch, type WatchCommand, type WatchIo, type Watcher } from './watch.js';

// `nettools trace HOST --watch`: the header once the server has resolved the host, each hop's line as
// soon as it and every lower hop are decided, and the verdict with the summary. Ctrl-C before the
// summary is a trace that did not reach its destination (exit 1).
export function watchTrace(client: NettoolsClient, request: Here<TracerouteRequest>, cmd: WatchCommand, io: WatchIo): Promise<number> {
  return watch((signal) => client.tracerouteStream(request, { signal }), cmd, io, traceWatcher(request, cmd, io));
}

// The same, event by event: what the command prints of each, for one stream or one location's part of it.
export function traceWatcher(request: TracerouteRequest, cmd: WatchCommand, io: WatchIo): Watcher<TracerouteEvent> {
  let family: 4 | 6 = 4;
  let hops = 0;
  const text = (lines: string[]) => (cmd.json ? undefined : lines.forEach((l) => io.out(l)));
  return {
    event(e) {
      if (e.event === 'start') {
        family = e.data.ipVersion;
        return text([traceHeader(e.data, cmd.server)]), null;
      }
      if (e.event === 'hop') {
        hops++;
        return text([hopLine(e.data, family, request.resolveNames === true, request.asn === true)]), null;
      }
      return verdict(traceFailure(e.data), io);
    },
    interrupted: () => verdict(`interrupted after ${hops} hop${hops === 1 ? '' : 's'}, destination not reached`, io),
  };
}

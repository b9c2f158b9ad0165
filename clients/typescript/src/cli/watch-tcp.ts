import type { NettoolsClient } from '../client.js';
import type { Here, TcpEvent, TcpRequest } from '../types.js';
import { attemptLine, tcpFailure, tcpHeader, tcpStatistics, TcpTally } from './format-tcp.js';
import { verdict } from './refused.js';
import { watch, type WatchCommand, type WatchIo, type Watcher } from './watch.js';

type Start = Extract<TcpEvent, { event: 'start' }>['data'];

// `nettools tcp HOST PORT --watch`: each attempt's line as it ends, then the statistics; on Ctrl-C the
// statistics of the attempts made so far, judged as a finished check would be.
export function watchTcp(client: NettoolsClient, request: Here<TcpRequest>, cmd: WatchCommand, io: WatchIo): Promise<number> {
  return watch((signal) => client.tcpStream(request, { signal }), cmd, io, tcpWatcher(request, cmd, io));
}

// The same, event by event: what the command prints of each, for one stream or one location's part of it.
export function tcpWatcher(request: TcpRequest, cmd: WatchCommand, io: WatchIo): Watcher<TcpEvent> {
  let start: Start | null = null;
  let startedAt = Date.now();
  const tally = new TcpTally();
  const text = (lines: string[]) => (cmd.json ? undefined : lines.forEach((l) => io.out(l)));
  return {
    event(e) {
      if (e.event === 'start') {
        start = e.data;
        startedAt = Date.now();
        return text([tcpHeader(e.data.host, e.data.address, e.data.port, cmd.server)]), null;
      }
      if (e.event === 'attempt') {
        tally.add(e.data);
        return text([attemptLine(e.data, start?.address ?? '?', start?.port ?? request.port)]), null;
      }
      text(['', ...tcpStatistics(e.data)]);
      return verdict(tcpFailure(e.data), io);
    },
    interrupted() {
      if (start === null || tally.sent === 0) return verdict('interrupted before any attempt ended', io);
      const partial = tally.figures(start, Date.now() - startedAt);
      text(['', ...tcpStatistics(partial)]);
      return verdict(tcpFailure(partial), io);
    },
  };
}

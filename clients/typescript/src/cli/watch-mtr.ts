import type { NettoolsClient } from '../client.js';
import type { Here, MtrEvent, MtrRequest } from '../types.js';
import { cyclesRun, mtrFailure, mtrHeader, mtrTable, type MtrColumns } from './format-mtr.js';
import { verdict } from './refused.js';
import { watch, type WatchCommand, type WatchIo, type Watcher } from './watch.js';

type Start = Extract<MtrEvent, { event: 'start' }>['data'];

// `nettools mtr HOST --watch`: the table after every cycle, as mtr's live view shows it. On a terminal
// (io.screen) each cycle redraws the screen; elsewhere each cycle's table follows the last, a blank line
// between. The summary's table is drawn once more only when it differs (a name or AS that came late).
// Ctrl-C stops: exit 0 when the destination had answered by then, as a finished mtr would.
export function watchMtr(client: NettoolsClient, request: Here<MtrRequest>, cmd: WatchCommand & { columns: MtrColumns }, io: WatchIo): Promise<number> {
  return watch((signal) => client.mtrStream(request, { signal }), cmd, io, mtrWatcher(cmd, io));
}

// The same, event by event: what the command prints of each, for one stream or one location's part of it.
export function mtrWatcher(cmd: WatchCommand & { columns: MtrColumns }, io: WatchIo): Watcher<MtrEvent> {
  let start: Start | null = null;
  let shown: string | null = null; // the table last drawn, without its header
  let reached = false;
  let cycles = 0;
  const draw = (lines: string[]) => {
    const body = lines.slice(1).join('\n');
    if (cmd.json || start === null || body === shown) return;
    if (io.screen) io.screen(lines);
    else [...(shown === null ? [] : ['']), ...lines].forEach((l) => io.out(l));
    shown = body;
  };
  const table = (hops: Parameters<typeof mtrTable>[0], progress: string) => [mtrHeader(start ?? { host: '?', address: '?' }, cmd.server, progress), ...mtrTable(hops, cmd.columns)];
  return {
    event(e) {
      if (e.event === 'start') return (start = e.data), null;
      if (e.event === 'cycle') {
        ({ cycle: cycles, destinationReached: reached } = e.data);
        return draw(table(e.data.hops, `cycle ${cycles} of ${start?.cycles ?? '?'}`)), null;
      }
      draw(table(e.data.hops, cyclesRun(e.data.cycles)));
      return verdict(mtrFailure(e.data), io);
    },
    interrupted: () => verdict(reached ? null : `interrupted after ${cyclesRun(cycles)}, destination not reached`, io),
  };
}

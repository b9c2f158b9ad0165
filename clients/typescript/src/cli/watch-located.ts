import { EXIT } from './exit-codes.js';
import { consistencyVerdict, reachedVerdict } from './located.js';
import { verdict } from './refused.js';
import { oneLine } from './terminal.js';
import { watch, type WatchCommand, type WatchIo, type Watcher } from './watch.js';

// What a stream asked with locations yields: each location's events, its data with its `location`, then
// the `locations` event with the JSON answer. Shapes are checked by watch() before anything here runs.
type LocatedEvent = { event: string; data: Record<string, unknown> };
type Answer = { locations: Record<string, object>; verdict: Record<string, number | boolean> };

// What the verdict of --from needs of the command.
export interface FromCommand extends WatchCommand {
  quorum?: number | undefined;
  host?: string;
  consistent?: boolean | undefined;
  domain?: string;
}

interface Part {
  watcher: Watcher<never>;
  code: number | null; // its exit status once its summary or problem came
}

// `--from` with `--watch`: every location's events as they arrive, each line led by `[name]` and printed
// as the command prints a stream of its own, a location's problem as one line, then the verdict line of
// --from and its exit status. Ctrl-C: each location still measuring is judged as an interrupted watch
// of its own, and the worst status is the exit.
export function watchFrom<E>(open: (signal: AbortSignal) => AsyncIterable<LocatedEvent>, cmd: FromCommand, io: WatchIo, part: (io: WatchIo) => Watcher<E>): Promise<number> {
  const parts = new Map<string, Part>();
  const partOf = (name: string): Part => {
    const known = parts.get(name);
    if (known !== undefined) return known;
    const made: Part = { watcher: part(prefixed(io, name)) as Watcher<never>, code: null };
    parts.set(name, made);
    return made;
  };
  return watch(open, { ...cmd, located: true }, io, {
    event(e) {
      if (e.event === 'locations') return judged(e.data as unknown as Answer, cmd, io, parts);
      const { location, ...data } = e.data as { location: string } & Record<string, unknown>;
      const at = partOf(location);
      if (e.event !== 'problem') {
        const code = at.watcher.event({ event: e.event, data } as never);
        if (code !== null) at.code = code;
        return null;
      }
      const p = data as { status: number; title: string; code: string; detail?: string };
      if (!cmd.json) io.out(`[${location}] problem: ${p.status} ${oneLine(p.title)} (${oneLine(p.code)}): ${oneLine(p.detail ?? '')}`);
      at.code = EXIT.failed;
      return null;
    },
    interrupted() {
      if (parts.size === 0) return verdict('interrupted before any location answered', io);
      let code: number = EXIT.ok;
      for (const at of parts.values()) code = Math.max(code, at.code ?? at.watcher.interrupted());
      return code;
    },
  });
}

function judged(answer: Answer, cmd: FromCommand, io: WatchIo, parts: Map<string, Part>): number {
  if (cmd.tool !== 'dns') return reachedVerdict(answer.verdict, cmd, io);
  // A location that gave no answer counts as 1, as without --watch.
  const code = Math.max(EXIT.ok, ...Object.keys(answer.locations).map((name) => parts.get(name)?.code ?? EXIT.failed));
  return consistencyVerdict(answer.verdict, { ...cmd, domain: cmd.domain ?? '' }, io, code);
}

// One location's view of the terminal: its lines led by its name, its complaints naming it. No screen:
// several locations' tables cannot share one.
function prefixed(io: WatchIo, name: string): WatchIo {
  return {
    out: (line) => (line === '' ? undefined : io.out(`[${name}] ${line}`)),
    err: (line) => io.err(line.replace(/^nettools: /, `nettools: at ${name}: `)),
  };
}

import { IcmpError, fromNative, sessionFault } from './errors';
import { LinkedList } from '../../util/linked-list';
import { SessionTable } from './session-table';
import { promised, type Answer } from '../../util/answer';
import { PackedReader } from '../../native/packed';
import { nativeEngineClass, nativePing, nativeTrace, type EchoReports, type NativeIcmpEngine, type NativeStats, type PingDone } from './native';
import { summarize } from './stats';
import { unpackEcho, unpackReply, unpackResult } from './unpack';
import type { EchoOutcome, EchoReply, EchoResult, EchoSink, MeteredOutcome, MeteredPing, Pinger, PingerOptions, EchoOptions, RawEcho, SocketKinds, TraceOptions, TraceOutcome } from './types';

function abortError(signal: AbortSignal): IcmpError {
  const why = signal.reason instanceof Error ? signal.reason.message : 'the ping was aborted';
  return new IcmpError('aborted', why);
}

// How a ping started with reports reads and hands on each of its echoes, and how it ends when that fails.
// A class of its own per kind, not closures: an event touches this one object and its handler, where a
// chain of closures cost a cold context each at every event (bench/README.md, Streams).
interface Reporter {
  session: number; // the engine's, set once the session started
  report(index: number, r: PackedReader): void;
  fault(err: unknown): void;
}

// A ping's replies as it streams them. `fault` is the session's, which launch makes after the reporter
// and sets before the engine can report.
class ReplyReporter implements Reporter {
  session = 0;
  fault: (err: unknown) => void = ignore;

  constructor(
    private readonly statusNames: readonly string[],
    private readonly onEcho: (echo: EchoReply) => void,
  ) {}

  report(index: number, r: PackedReader): void {
    try {
      this.onEcho(unpackReply(this.statusNames, index, r));
    } catch (err) {
      this.fault(err);
    }
  }
}

// A metered ping's echoes: the reply it streams, with the status and unrounded RTT its statistics take
// (the first two of the record's numbers); `fault` as ReplyReporter's.
class MeteredReporter implements Reporter {
  session = 0;
  fault: (err: unknown) => void = ignore;

  constructor(
    private readonly statusNames: readonly string[],
    private readonly sink: EchoSink,
  ) {}

  report(index: number, r: PackedReader): void {
    try {
      const rttMs = r.peekAt(1);
      const reply = unpackReply(this.statusNames, index, r);
      this.sink.echo(index, reply.status, rttMs, reply);
    } catch (err) {
      this.fault(err);
    }
  }
}

// A trace's probes, raw; `fault` as ReplyReporter's.
class ProbeReporter implements Reporter {
  session = 0;
  fault: (err: unknown) => void = ignore;

  constructor(
    private readonly statusNames: readonly string[],
    private readonly onProbe: (probe: RawEcho) => void,
  ) {}

  report(index: number, r: PackedReader): void {
    try {
      this.onProbe(unpackEcho(this.statusNames, index, r));
    } catch (err) {
      this.fault(err);
    }
  }
}

function ignore(): void {}

class NativePinger implements Pinger {
  readonly socketKinds: SocketKinds;
  private engine: NativeIcmpEngine | null = null;
  // Rejecters of pings in flight, so close() can settle them: the engine drops them silently.
  private readonly pending = new LinkedList<(err: IcmpError) => void>();
  // The pings in flight that report each echo, by session.
  private readonly reporters = new SessionTable<Reporter>();
  // Held here: the engine holds it weakly, so that a pinger dropped without close() can be collected.
  private readonly onReports: EchoReports = (numbers, ascii, others) => this.reports(numbers, ascii, others);

  constructor(
    open: (reports: EchoReports) => NativeIcmpEngine,
    private readonly statusNames: readonly string[],
  ) {
    const engine = open(this.onReports);
    this.engine = engine;
    const k = engine.socketKinds();
    const reasons: SocketKinds['reasons'] = {};
    if (k.v4.kind === null) reasons.v4 = k.v4.error ?? 'unavailable';
    if (k.v6.kind === null) reasons.v6 = k.v6.error ?? 'unavailable';
    this.socketKinds = { v4: k.v4.kind, v6: k.v6.kind, reasons };
  }

  start(options: EchoOptions, done: (outcome: EchoOutcome) => void, onEcho?: (echo: EchoReply) => void): () => void {
    return this.launch(
      (engine, finished, report) => nativePing(engine, options, finished, report),
      unpackResult,
      (raw) => done({ ok: true, echo: summarize(raw) }),
      (error) => done({ ok: false, error }),
      onEcho && new ReplyReporter(this.statusNames, onEcho),
    );
  }

  startMetered(options: EchoOptions, grant: number, done: (outcome: MeteredOutcome) => void, sink: EchoSink): MeteredPing {
    let session = 0;
    const stop = this.launch(
      (engine, finished) => (session = nativePing(engine, options, finished, true, grant)),
      unpackResult,
      (end) => done({ ok: true, duplicates: end.duplicates, durationMs: end.durationMs }),
      (error) => done({ ok: false, error }),
      new MeteredReporter(this.statusNames, sink),
    );
    return {
      extend: (echoes) => {
        if (this.engine === null) return new IcmpError('engine-closed', 'the pinger is closed');
        try {
          this.engine.extend(session, echoes);
          return null;
        } catch (err) {
          const error = fromNative(err);
          if (!(error instanceof IcmpError)) throw error;
          return error;
        }
      },
      stop,
    };
  }

  trace(options: TraceOptions, done: (outcome: TraceOutcome) => void, onProbe?: (probe: RawEcho) => void): () => void {
    return this.launch(
      (engine, finished, report) => nativeTrace(engine, options, finished, report),
      unpackResult,
      (raw) => done({ ok: true, probes: raw.replies, durationMs: raw.durationMs }),
      (error) => done({ ok: false, error }),
      onProbe && new ProbeReporter(this.statusNames, onProbe),
    );
  }

  // The echoes one engine frame decided, in the order it decided them, each to its ping. A record always
  // ends where it says it does, whatever its reader did with it; a ping stopped meanwhile (by an earlier
  // record's reader, say) gets no more. The engine calls this from the event loop, outside every request:
  // what cannot be read is the fault of every ping that reports, and nothing escapes.
  private reports(numbers: unknown, ascii: unknown, others?: unknown): void {
    try {
      const r = new PackedReader('packed echo reports', numbers, ascii, others);
      while (!r.done) {
        const next = r.recordEnd();
        const reporter = this.reporters.get(r.num());
        if (reporter !== undefined) reporter.report(r.num(), r);
        r.seek(next);
      }
    } catch (err) {
      for (const reporter of this.reporters.values()) reporter.fault(err);
    }
  }

  // Starts one engine session: `call` makes it; `ok` (with the result as `unpack` reads it) or `fail`
  // comes once, unless the returned function is called first; `reporter` reads each echo as it is decided
  // from the engine's reports: a streamed ping reads its replies straight into what it reports, a trace
  // into the raw echo.
  private launch<R>(
    call: (engine: NativeIcmpEngine, finished: PingDone, report: boolean) => number,
    unpack: (statusNames: readonly string[], numbers: unknown, ascii: unknown, others?: unknown) => R,
    ok: (result: R) => void,
    fail: (error: IcmpError) => void,
    reporter?: Reporter,
  ): () => void {
    const engine = this.engine;
    if (engine === null) {
      fail(new IcmpError('engine-closed', 'the pinger is closed'));
      return () => undefined;
    }
    // Called only by close(), which has taken it off the list already.
    const inFlight = this.pending.push(fail);
    let session = 0;
    // The engine calls these from the event loop, where a throw would escape every request's guard:
    // one is the session's fault instead, which its caller turns into the request's 500.
    const finished: PingDone = (numbers, ascii, others) => {
      this.pending.remove(inFlight);
      if (reporter) this.reporters.delete(session);
      try {
        ok(unpack(this.statusNames, numbers, ascii, others));
      } catch (err) {
        fail(sessionFault(err));
      }
    };
    const fault = (err: unknown): void => {
      this.reporters.delete(session);
      if (!this.pending.remove(inFlight)) return;
      engine.cancel(session);
      fail(sessionFault(err));
    };
    try {
      session = call(engine, finished, reporter !== undefined);
    } catch (err) {
      this.pending.remove(inFlight);
      const error = fromNative(err);
      if (!(error instanceof IcmpError)) throw error;
      fail(error);
      return () => undefined;
    }
    if (reporter) {
      reporter.fault = fault;
      reporter.session = session;
      this.reporters.set(reporter);
    }
    return () => {
      // Stops sending and frees the sequences at once; the engine's callback will not come.
      this.reporters.delete(session);
      if (this.pending.remove(inFlight)) engine.cancel(session);
    };
  }

  ping(options: EchoOptions, signal?: AbortSignal): Promise<EchoResult> {
    return promised((done: Answer<EchoResult>) => {
      if (signal?.aborted) return done(abortError(signal));
      const onAbort = (): void => {
        stop();
        done(abortError(signal!));
      };
      const stop = this.start(options, (outcome) => {
        signal?.removeEventListener('abort', onAbort);
        done(outcome.ok ? outcome.echo : outcome.error);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  stats(): NativeStats {
    if (this.engine === null) {
      const none = { inFlight: 0, drops: 0, stray: 0, strayErrors: 0, sent: 0, traceSent: 0 };
      return { v4: { ...none }, v6: { ...none }, sessions: 0 };
    }
    return this.engine.stats();
  }

  close(): void {
    this.engine?.close();
    this.engine = null;
    this.reporters.clear();
    for (const reject of this.pending.drain()) {
      reject(new IcmpError('engine-closed', 'the pinger was closed while the ping was in flight'));
    }
  }
}

// Opens one engine (one socket per family, shared by every ping). Never throws for a missing socket
// kind: `socketKinds` says what opened and why not.
export function openPinger(options: PingerOptions = {}): Pinger {
  const Engine = nativeEngineClass();
  try {
    return pingerOn((reports) => new Engine(options.kind ?? 'auto', reports), Engine.statusNames);
  } catch (err) {
    throw fromNative(err);
  }
}

// The pinger over an engine `open` makes, handed the function its reports go to (a test's engine of its
// own, which packs reports by hand).
export function pingerOn(open: (reports: EchoReports) => NativeIcmpEngine, statusNames: readonly string[]): Pinger {
  return new NativePinger(open, statusNames);
}

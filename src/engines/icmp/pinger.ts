import { IcmpError, fromNative, sessionFault } from './errors';
import { LinkedList } from '../../util/linked-list';
import { promised, type Answer } from '../../util/answer';
import { nativeEngineClass, nativePing, nativeTrace, type EchoProgress, type NativeIcmpEngine, type NativeStats, type PingDone } from './native';
import { summarize } from './stats';
import { unpackEcho, unpackReply, unpackResult, unpackRound } from './unpack';
import type { EchoOutcome, EchoReply, EchoResult, Pinger, PingerOptions, EchoOptions, RawEcho, RoundOutcome, SocketKinds, TraceOptions, TraceOutcome } from './types';

function abortError(signal: AbortSignal): IcmpError {
  const why = signal.reason instanceof Error ? signal.reason.message : 'the ping was aborted';
  return new IcmpError('aborted', why);
}

class NativePinger implements Pinger {
  readonly socketKinds: SocketKinds;
  private engine: NativeIcmpEngine | null;
  // Rejecters of pings in flight, so close() can settle them: the engine drops them silently.
  private readonly pending = new LinkedList<(err: IcmpError) => void>();

  constructor(
    engine: NativeIcmpEngine,
    private readonly statusNames: readonly string[],
  ) {
    this.engine = engine;
    const k = engine.socketKinds();
    const reasons: SocketKinds['reasons'] = {};
    if (k.v4.kind === null) reasons.v4 = k.v4.error ?? 'unavailable';
    if (k.v6.kind === null) reasons.v6 = k.v6.error ?? 'unavailable';
    this.socketKinds = { v4: k.v4.kind, v6: k.v6.kind, reasons };
  }

  start(options: EchoOptions, done: (outcome: EchoOutcome) => void, onEcho?: (echo: EchoReply) => void): () => void {
    return this.launch(
      (engine, finished, progress) => nativePing(engine, options, finished, progress),
      unpackResult,
      (raw) => done({ ok: true, echo: summarize(raw) }),
      (error) => done({ ok: false, error }),
      onEcho && this.replies(onEcho),
    );
  }

  startRound(options: EchoOptions, done: (outcome: RoundOutcome) => void, onEcho?: (echo: EchoReply) => void): () => void {
    return this.launch(
      (engine, finished, progress) => nativePing(engine, options, finished, progress),
      unpackRound,
      (round) => done({ ok: true, round }),
      (error) => done({ ok: false, error }),
      onEcho && this.replies(onEcho),
    );
  }

  trace(options: TraceOptions, done: (outcome: TraceOutcome) => void, onProbe?: (probe: RawEcho) => void): () => void {
    return this.launch(
      (engine, finished, progress) => nativeTrace(engine, options, finished, progress),
      unpackResult,
      (raw) => done({ ok: true, probes: raw.replies, durationMs: raw.durationMs }),
      (error) => done({ ok: false, error }),
      onProbe && ((index, numbers, ascii, others) => onProbe(unpackEcho(this.statusNames, index, numbers, ascii, others))),
    );
  }

  private replies(onEcho: (echo: EchoReply) => void): EchoProgress {
    return (index, numbers, ascii, others) => onEcho(unpackReply(this.statusNames, index, numbers, ascii, others));
  }

  // Starts one engine session: `call` makes it; `ok` (with the result as `unpack` reads it) or `fail`
  // comes once, unless the returned function is called first; `onPacked` gets each echo as it is decided,
  // still packed: a streamed ping reads its replies straight into what it reports, a trace into the raw echo.
  private launch<R>(
    call: (engine: NativeIcmpEngine, finished: PingDone, progress?: EchoProgress) => number,
    unpack: (statusNames: readonly string[], numbers: unknown, ascii: unknown, others?: unknown) => R,
    ok: (result: R) => void,
    fail: (error: IcmpError) => void,
    onPacked?: EchoProgress,
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
      try {
        ok(unpack(this.statusNames, numbers, ascii, others));
      } catch (err) {
        fail(sessionFault(err));
      }
    };
    const progress: EchoProgress | undefined =
      onPacked &&
      ((index, numbers, ascii, others) => {
        try {
          onPacked(index, numbers, ascii, others);
        } catch (err) {
          if (!this.pending.remove(inFlight)) return;
          engine.cancel(session);
          fail(sessionFault(err));
        }
      });
    try {
      session = call(engine, finished, progress);
    } catch (err) {
      this.pending.remove(inFlight);
      const error = fromNative(err);
      if (!(error instanceof IcmpError)) throw error;
      fail(error);
      return () => undefined;
    }
    return () => {
      // Stops sending and frees the sequences at once; the engine's callback will not come.
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
    return new NativePinger(new Engine(options.kind ?? 'auto'), Engine.statusNames);
  } catch (err) {
    throw fromNative(err);
  }
}

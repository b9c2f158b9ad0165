import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startUnderCallgrind } from '../lib/callgrind';
import { callsTo } from '../lib/callgrind-calls';
import { DUMPS } from '../lib/instruction-count';
import { runClient, type ClientReport } from './client-process';

// `npm run bench:streams -- --steady --instructions`: the server's instructions per streamed event in the
// steady state, counted by callgrind. CPU time per event moves with the host, by more than a change to
// nettools does (bench/README.md, Streams: "A measure the host cannot move"). Instructions are not
// cycles, and the kernel's side is not in them; they are the server's own user-space work, which a
// change to it moves and the host does not.
//
// The server runs under callgrind, uninstrumented through its start, the warm-up and the openings; the
// count runs over the client's steady window, from zeroed counters to a dump. Events are what the dump
// says: every event of a stream past its opening is one uWS cork (exchange.ts, streamPiece), so the calls
// to res_cork in the window are its events, exactly, where the client's tally is off by what arrives
// while callgrind is switched.
// The load is lighter than the CPU bench's, which callgrind could not keep up with, and a reply's
// deadline falls where the next echo is due: one wake-up for both, as at 1 s with the default timeout
// (the CPU bench's load). The window opens once the streams' own objects, made at their openings, have
// been promoted by the second scavenge after them: a window that held that one-off copy counted it as
// the events' own.

export const INSTRUCTION_LOAD = { streams: 1000, count: 26, intervalMs: 2000, windowFromIntervals: 14 };
const WARMUP = { streams: 200, count: 11, intervalMs: 200 };

export interface StreamInstructions {
  streams: number;
  intervalMs: number;
  ir: number;
  compilingIr: number; // of ir: V8 compiling (see isCompiler)
  collectingIr: number; // of ir: V8 collecting garbage (see isCollector)
  events: number;
  clientEvents: number;
  instructionsPerEvent: number; // V8's compiling and collecting left out
  compilingPerEvent: number;
  collectingPerEvent: number;
  client: ClientReport;
  // The window's dump, for callgrind_annotate; kept in the system's temporary directory.
  dump: string;
}

const isCork = (name: string) => name.startsWith('void HttpResponseWrapper::res_cork<');
// V8 optimising a function (Turbofan). Run on the main thread here (the count's --predictable), it is
// warm-up, not the steady state: the window holds a round's start, the one place where the round path
// (a timer per stream every ten echoes) has run often enough to be optimised, and windows of one build
// catch very different shares of it. Said apart from the count, not in it.
const isCompiler = (name: string) => name.startsWith('v8::internal::Compiler::CompileOptimized(');
// V8 collecting garbage: part of the steady state, but at this load a window holds one scavenge or none,
// by where the allocations put it, and two builds would be compared by where their scavenges fell.
// Said apart too.
const isCollector = (name: string) => name.startsWith('v8::internal::Heap::CollectGarbage(');

export async function countStreamInstructions(entry: string, hosts: string[], dumpName: string, load: typeof INSTRUCTION_LOAD = INSTRUCTION_LOAD): Promise<StreamInstructions> {
  // Every target is an IP literal: no resolver is asked. Bounded: start, warm-up, and the run at a tenth
  // of its pace, whatever happens.
  const boundMs = 240_000 + 10 * load.count * load.intervalMs;
  const server = await startUnderCallgrind(entry, 'none=127.0.0.1:9', boundMs);
  try {
    const url = `http://127.0.0.1:${server.port}`;
    const warm = await runClient(url, { ...WARMUP, hosts, steady: false });
    if (warm.whole !== WARMUP.streams) throw new Error(`warming the server: ${WARMUP.streams - warm.whole} of ${WARMUP.streams} streams not whole`);
    let opened: Promise<void> | null = null;
    let closed: Promise<{ ir: number; file: string }> | null = null;
    let clientEvents = 0;
    const client = await runClient(url, {
      ...load,
      // A reply's deadline where the next echo is due, one wake-up for both, as at 1 s with the
      // default timeout (the CPU bench's load); with the default at 2 s it was a wake-up more per echo.
      timeoutMs: load.intervalMs,
      hosts,
      steady: true,
      onMark: (mark) => {
        if (mark.mark === 'start') opened = server.control('--instr=on').then(() => server.control('--zero'));
        else if (opened !== null) {
          clientEvents = mark.events;
          closed = opened.then(() => server.dump());
        }
      },
    });
    if (closed === null) throw new Error('the stream client marked no steady window');
    const dump = await (closed as Promise<{ ir: number; file: string }>);
    if (client.whole !== load.streams) throw new Error(`${load.streams - client.whole} of ${load.streams} streams not whole under callgrind`);
    const text = readFileSync(dump.file, 'utf8');
    const events = callsTo(text, isCork).calls;
    if (events === 0) throw new Error('the dump records no res_cork calls: is uWS built without symbols?');
    const compiling = callsTo(text, isCompiler).ir;
    const collecting = callsTo(text, isCollector).ir;
    mkdirSync(DUMPS, { recursive: true });
    const kept = path.join(DUMPS, `${dumpName}.callgrind`);
    copyFileSync(dump.file, kept);
    return {
      streams: load.streams,
      intervalMs: load.intervalMs,
      ir: dump.ir,
      compilingIr: compiling,
      collectingIr: collecting,
      events,
      clientEvents,
      instructionsPerEvent: (dump.ir - compiling - collecting) / events,
      compilingPerEvent: compiling / events,
      collectingPerEvent: collecting / events,
      client,
      dump: kept,
    };
  } finally {
    await server.stop();
  }
}

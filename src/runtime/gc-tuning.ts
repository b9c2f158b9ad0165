import { setFlagsFromString } from 'node:v8';

// V8 moves an allocation site to the old generation ("pretenures" it) when most of what it made
// survived a scavenge. A request in flight across a scavenge looks long-lived that way, but dies a few
// milliseconds later: with 256 connections waiting on the resolvers (DNS for fresh names) V8 pretenured
// the query and answer sites, every request then went straight to the old generation, and only major
// GCs reclaimed it. Measured on that load, 8 s, two runs each: peak RSS 170 and 174 MB with pretenuring,
// 145 and 145 MB without; major GCs 5 against 2 or 3; scavenges 9.0-10.1 ms against 4.1-4.2 ms on
// average. The flag is read at every GC, so setting it at start (before any request) is enough, and it
// holds for the worker threads too (flags are per process).
export function tuneGarbageCollector(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

// Whose fault a sanitizer report is: ours (the addon's code, native/) or Node's own.
//
// LeakSanitizer finds a block leaked when nothing it scans points at it, and it does not scan V8's heap
// pages (node's release build does not register them as root regions). So a block that Node's C++ side
// allocated for a JavaScript object, and that only that object points at, reads as leaked when the
// process exits with the object still alive. Such a block allocated by JavaScript that one of our
// callbacks called (a stream write from a ping's progress event) carries our frame far down its stack,
// below the call into JavaScript: the leak is Node's, not ours. A leak is ours when the nearest frame of
// ours stands above any call into JavaScript, i.e. our code made the allocating call itself; memory errors
// and undefined behaviour are always ours.
//
// Usage: node report-owner.js <report file>...: prints one line per file, exits 1 if any is ours.
import fs from 'node:fs';
import path from 'node:path';

export interface Leak {
  header: string; // "Direct leak of 48 byte(s) in 1 object(s) allocated from:"
  frames: string[];
}

export type Owner = { ours: true; why: string } | { ours: false; why: string };

// Frames of JavaScript running, or of native code calling into it: whatever is allocated above them,
// JavaScript asked for. V8's builtins (the interpreter's entry, the stubs) are named Builtins_*, and code
// the JIT made has no module (LeakSanitizer keeps 30 frames, so a deep stack may show only these).
const INTO_JS = /\bin (v8::internal::Execution::|v8::Function::Call|node::InternalMakeCallback|node::MakeCallback|napi_make_callback|napi_call_function|Builtins_)|\(<unknown module>\)/;
// A frame of the addon's own sources (not node-addon-api's headers under node_modules).
const OURS = /(^|[\s(/])native\/(?!.*node_modules)/;

export function leaksOf(report: string): Leak[] {
  const leaks: Leak[] = [];
  let current: Leak | null = null;
  for (const line of report.split('\n')) {
    if (/^(Direct|Indirect) leak of /.test(line)) {
      current = { header: line.trim(), frames: [] };
      leaks.push(current);
    } else if (current !== null && /^\s+#\d+ /.test(line)) {
      current.frames.push(line.trim());
    } else if (line.trim() === '') {
      current = null;
    }
  }
  return leaks;
}

// A leak is ours unless JavaScript made the allocating call: a call into JavaScript comes before (nearer
// the allocation than) any frame of ours. A direct leak with no frame of ours and none into JavaScript is
// all Node's and V8's own; lsan.supp names each such site with its reason, so one not named there still
// fails. An indirect leak is reachable only from a direct one, which is judged itself: with no frame of
// ours it is part of that one (V8's page metadata hangs from its pages).
export function leakOwner(leak: Leak): Owner {
  for (const frame of leak.frames) {
    if (OURS.test(frame)) return { ours: true, why: `allocated by ${frame}` };
    if (INTO_JS.test(frame)) return { ours: false, why: `allocated by JavaScript, called through ${frame.replace(/^#\d+ 0x[0-9a-f]+ in /, '').slice(0, 80)}` };
  }
  if (leak.header.startsWith('Indirect')) return { ours: false, why: `an indirect leak with no frame of ours: ${leak.frames[1] ?? leak.header}` };
  return { ours: true, why: `no frame of ours or of a call into JavaScript: ${leak.frames[1] ?? leak.header}` };
}

export function reportOwner(report: string): Owner {
  const error = report.match(/ERROR: AddressSanitizer: .*|runtime error: .*/);
  if (error !== null) return { ours: true, why: error[0] };
  const leaks = leaksOf(report);
  if (leaks.length === 0) return { ours: true, why: 'a report without a leak or an error this reader knows' };
  for (const leak of leaks) {
    const owner = leakOwner(leak);
    if (owner.ours) return { ours: true, why: `${leak.header} ${owner.why}` };
  }
  return { ours: false, why: `${leaks.length} leak(s), none ours; the first ${leakOwner(leaks[0] as Leak).why}` };
}

if (require.main === module) {
  let anyOurs = false;
  for (const file of process.argv.slice(2)) {
    const owner = reportOwner(fs.readFileSync(file, 'utf8'));
    anyOurs ||= owner.ours;
    console.log(`${owner.ours ? 'ours' : 'node'} ${path.basename(file)}: ${owner.why}`);
  }
  process.exit(anyOurs ? 1 : 0);
}

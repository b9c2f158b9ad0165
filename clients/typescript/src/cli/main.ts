#!/usr/bin/env node
// `nettools`: the API's command line, a client of a running server. The server itself is
// `npm start` (node dist/src/main.js) in the nettools repository.
import { EXIT } from './exit-codes.js';
import { run } from './run.js';
import { oneLine, terminalSafe } from './terminal.js';

run(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  // A live table (mtr --watch) redraws in place on a terminal only: clear, then draw from the top.
  screen: process.stdout.isTTY ? (lines) => void process.stdout.write(`\x1b[H\x1b[2J${lines.join('\n')}\n`) : undefined,
  // Only while a --watch runs: elsewhere Ctrl-C ends the process as it always does.
  onInterrupt: (stop) => {
    process.on('SIGINT', stop);
    return () => void process.off('SIGINT', stop);
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  // run() returns a status for every failure it knows; this is the last word, still one line.
  (err: unknown) => {
    process.stderr.write(`nettools: ${terminalSafe(oneLine(err instanceof Error ? err.message : String(err)))}\n`);
    process.exitCode = EXIT.noAnswer;
  },
);

import type { Logger } from '../log';

// The process's last line: a throw or rejection that no request guard caught (a timer's, an engine
// callback's, a store client's). Node's default ends the process for either, and on a public server
// that is every client's outage for one bug, repeated at each restart by whoever found it. Each one is
// logged and counted, and the thread serves on: every request path has its own guard (exchange.ts, and
// the stage runner's `guarded` and `later` in http/pipeline/runner.ts), so what reaches here is not in
// the middle of answering anyone.
let caught = 0;
let installed = false;

export function uncaughtErrors(): number {
  return caught;
}

export function installLastResort(log: Logger): void {
  if (installed) return;
  installed = true;
  const report = (kind: 'exception' | 'rejection') => (err: unknown) => {
    caught++;
    log.log('error', `uncaught ${kind}; the server goes on`, { error: (err as Error | undefined)?.stack ?? String(err) });
  };
  process.on('uncaughtException', report('exception'));
  process.on('unhandledRejection', report('rejection'));
}

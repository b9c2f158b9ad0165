// A process that opens an engine, does what argv[2] names, never closes the engine, and prints what it
// saw: whether it then exits on its own is what test/icmp/process-exit.test.ts looks at.
//   idle        opens the engine and nothing else
//   in-flight   pings 127.0.0.1 three times, 100 ms apart, and prints the statuses when the result comes
//   answered    one echo with a 60 s timeout, answered at once: nothing is left due once it is
//   cancelled   starts a ping of ten echoes a minute apart and cancels it at once
import { openPinger } from '../../src/engines/icmp/pinger';
import { ip } from './address';

const pinger = openPinger();
const mode = process.argv[2];
const print = (what: unknown) => process.stdout.write(`${JSON.stringify(what)}\n`);
const options = { address: ip('127.0.0.1'), size: 56 };

if (mode === 'idle') {
  print('opened');
} else if (mode === 'in-flight' || mode === 'answered') {
  const timing = mode === 'in-flight' ? { count: 3, intervalMs: 100, timeoutMs: 1000 } : { count: 1, intervalMs: 1000, timeoutMs: 60_000 };
  pinger.start({ ...options, ...timing }, (outcome) => print(outcome.ok ? outcome.echo.replies.map((r) => r.status) : outcome.error.code));
} else if (mode === 'cancelled') {
  const stop = pinger.start({ ...options, count: 10, intervalMs: 60_000, timeoutMs: 1000 }, () => print('result'));
  stop();
  print('cancelled');
} else {
  throw new Error(`unknown mode ${mode}`);
}

import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sniffEchoes, type EchoSniffer } from '../support/echo-sniffer';

// The echo sniffer that tests count echoes with must count all of them on a loaded machine, where it is
// not scheduled for a while: held back here with SIGSTOP while echoes go out. Only 127.0.0.1 is pinged,
// a bounded number of times.
const test = suite<{ sniffer: EchoSniffer }>('the echo sniffer');

test.before.each(async (ctx) => {
  ctx.sniffer = sniffEchoes();
  await ctx.sniffer.ready;
});

test.after.each(({ sniffer }) => {
  process.kill(sniffer.pid, 'SIGCONT');
  sniffer.stop();
});

function ping(count: number, size: number, intervalS: number): void {
  const run = spawnSync('ping', ['-n', '-q', '-c', String(count), '-i', String(intervalS), '-W', '1', '-s', String(size), '127.0.0.1'], { encoding: 'utf8', timeout: 30_000 });
  assert.is(run.status, 0, run.stderr);
}

test('settled() counts every echo that went out before it, though the sniffer had read none of them yet', async ({ sniffer }) => {
  process.kill(sniffer.pid, 'SIGSTOP');
  ping(5, sniffer.size, 0.01);
  process.kill(sniffer.pid, 'SIGCONT');
  assert.is(await sniffer.settled(), 5);
});

test('while it cannot read, a flood of other ICMP on loopback does not crowd out its echoes', async ({ sniffer }) => {
  process.kill(sniffer.pid, 'SIGSTOP');
  // 400 echoes and their 400 replies, of a size no sniffer picks: far more than a default receive buffer
  // (about 200 KiB) holds; then ours.
  ping(400, 500, 0.002);
  ping(20, sniffer.size, 0.002);
  process.kill(sniffer.pid, 'SIGCONT');
  assert.is(await sniffer.settled(), 20);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFpingCounts, parseIputilsPing } from '../../bench/lib/ping-output';
import { shape } from '../../bench/peers/baseline-ping';

const healthy = `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.046 ms
64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.052 ms
64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.038 ms

--- 127.0.0.1 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 35ms
rtt min/avg/max/mdev = 0.038/0.045/0.052/0.005 ms
`;

// One reply, one duplicate of it, one ICMP error, one echo lost.
const troubled = `PING 198.18.0.2 (198.18.0.2) 56(84) bytes of data.
64 bytes from 198.18.0.2: icmp_seq=1 ttl=63 time=1.20 ms
64 bytes from 198.18.0.2: icmp_seq=1 ttl=63 time=1.31 ms (DUP!)
From 198.18.0.1 icmp_seq=2 Destination Host Unreachable

--- 198.18.0.2 ping statistics ---
3 packets transmitted, 1 received, +1 duplicates, +1 errors, 66.6667% packet loss, time 2003ms
rtt min/avg/max/mdev = 1.200/1.255/1.310/0.055 ms
`;

test('iputils replies, totals, elapsed time and rtt line are read', () => {
  const p = parseIputilsPing(healthy);
  assert.ok(p);
  assert.is(p!.transmitted, 3);
  assert.is(p!.received, 3);
  assert.is(p!.timeMs, 35);
  assert.equal(p!.replies[1], { bytes: 64, seq: 2, ttl: 64, rttMs: 0.052, duplicate: false });
  assert.equal(p!.rtt, { minMs: 0.038, avgMs: 0.045, maxMs: 0.052, mdevMs: 0.005 });
});

test('duplicates and ICMP errors are told apart from replies', () => {
  const p = parseIputilsPing(troubled)!;
  assert.is(p.replies.length, 2);
  assert.ok(p.replies[1]!.duplicate);
  assert.equal(p.errors, [{ from: '198.18.0.1', seq: 2, reason: 'Destination Host Unreachable' }]);
  assert.is(p.received, 1);
  assert.is(p.timeMs, 2003);
});

test('output without the statistics block is not a measurement', () => {
  assert.is(parseIputilsPing('ping: connect: Network is unreachable\n'), null);
});

test('a run with no reply has no rtt line and null rtt', () => {
  const p = parseIputilsPing('--- 198.18.0.9 ping statistics ---\n2 packets transmitted, 0 received, 100% packet loss, time 1010ms\n')!;
  assert.is(p.received, 0);
  assert.is(p.rtt, null);
});

test('the baseline shapes iputils output as the API does: 0-based seq, one entry per echo', () => {
  const body = shape(parseIputilsPing(troubled)!, 3);
  assert.equal(body.replies, [
    { seq: 0, status: 'reply', rttMs: 1.2, ttl: 63, bytes: 64 },
    { seq: 1, status: 'unreachable', from: '198.18.0.1', reason: 'host-unreachable' },
    { seq: 2, status: 'timeout' },
  ]);
  assert.equal(body.packets, { sent: 3, received: 1, duplicates: 1, lossPercent: 66.667 });
  assert.ok(body.reachable);
  assert.equal(body.rtt, { minMs: 1.2, avgMs: 1.255, maxMs: 1.31, stddevMs: 0.055, jitterMs: 0 });
});

test('the baseline jitter is the mean absolute difference of consecutive RTTs', () => {
  const body = shape(parseIputilsPing(healthy)!, 3);
  // |0.052-0.046| = 0.006, |0.038-0.052| = 0.014 -> 0.010
  assert.is(body.rtt!.jitterMs, 0.01);
});

test('fping -C counts are read per target, "-" is a lost echo', () => {
  const text = '127.0.0.1 : 0.048 0.048 - 0.049\n127.0.0.2 : 0.1 0.2\n';
  assert.equal(parseFpingCounts(text, '127.0.0.1'), { rttMs: [0.048, 0.048, 0.049], lost: 1 });
  assert.equal(parseFpingCounts(text, '127.0.0.2'), { rttMs: [0.1, 0.2], lost: 0 });
  assert.is(parseFpingCounts(text, '127.0.0.3'), null);
  assert.is(parseFpingCounts('127.0.0.1 : 0.04 oops\n', '127.0.0.1'), null);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoReply } from '../../../src/engines/icmp/types';
import { toReply } from '../../../src/engines/icmp/stats';
import { replyJson } from '../../../src/tools/ping/reply-json';

test('a streamed reply is written byte for byte as JSON.stringify writes it, for every shape an echo takes', () => {
  const echoes: EchoReply[] = [
    toReply({ seq: 0, status: 'reply', rttMs: 0.0523456, ttl: 64, bytes: 64 }),
    toReply({ seq: 44, status: 'reply', rttMs: 1234.5, ttl: 1, bytes: 1480 }),
    toReply({ seq: 3, status: 'reply' }),
    toReply({ seq: 7, status: 'timeout' }),
    toReply({ seq: 9, status: 'unreachable', from: undefined, reason: 'send-failed' }),
    { seq: 2, status: 'time-exceeded', from: '2001:db8::1', reason: 'ttl-exceeded' },
    { seq: 5, status: 'reply', rttMs: 1e-7, ttl: 255, bytes: 0 },
    { seq: 6, status: 'unreachable', from: 'a "quoted" \\ reason\n', reason: 'é\u0001' },
    { seq: 8, status: 'a "status" of no kind' as EchoReply['status'] },
  ];
  for (const echo of echoes) assert.is(replyJson(echo), JSON.stringify(echo));
});

test('a number JSON.stringify writes as null is written as null', () => {
  for (const rttMs of [NaN, Infinity, -Infinity]) {
    const echo: EchoReply = { seq: 1, status: 'reply', rttMs, ttl: 64, bytes: 64 };
    assert.is(replyJson(echo), JSON.stringify(echo));
  }
});

test.run();

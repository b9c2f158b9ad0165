// Ping and traceroute on one server share the worker's one ICMP engine: a socket per family, and each
// tool's counters count its own traffic alone. Raw sockets (the path's namespaces do not admit ping
// sockets) see a copy of every ICMP packet, so two engines would each count the other's as stray.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parsePromText, sampleValue } from '../support/prom-text';
import { createTracePath, type TracePath } from '../support/trace-path';
import { traceInPath } from './run-in-path';

const test = suite<{ path: TracePath }>('ping and traceroute on one ICMP engine');

test.before((ctx) => {
  ctx.path = createTracePath(3, 'nts');
});

test.after((ctx) => ctx.path?.destroy());

test('pinging and tracing at once, each tool counts only its own: no stray, probes sent are the traces alone, one socket per family', async ({ path: p }) => {
  const { v4, v6 } = p.destination;
  // Three routers, then the destination at TTL 4: with maxHops 4 every probe is needed, and all are sent.
  // The longest timeouts: an answer late on a loaded machine is still matched, never a stray.
  const trace = (host: string) => ({ tool: 'traceroute' as const, body: { host, maxHops: 4, probesPerHop: 2, timeoutMs: 3000 } });
  const ping = (host: string) => ({ tool: 'ping' as const, body: { host, count: 6, intervalMs: 100, timeoutMs: 5000 } });
  const result = await traceInPath(p, { asks: [ping(v4), trace(v4), ping(v6), trace(v6)], parallel: true });
  for (const answer of result.answers) assert.is(answer.status, 200, answer.text);
  for (const i of [0, 2]) {
    const body = JSON.parse(result.answers[i]!.text) as { packets: { sent: number; received: number } };
    assert.is(body.packets.sent, 6);
    assert.ok(body.packets.received > 0, 'the ping was answered');
  }
  for (const i of [1, 3]) assert.is((JSON.parse(result.answers[i]!.text) as { destinationReached: boolean }).destinationReached, true);
  const samples = parsePromText(result.metrics);
  const value = (name: string, family: string) => sampleValue(samples, name, { family });
  for (const family of ['4', '6']) assert.is(value('nettools_traceroute_probes_sent_total', family), 8, `the trace's 8 probes and no ping echo, IPv${family}`);
  for (const family of ['4', '6']) {
    assert.is(value('nettools_ping_stray_packets_total', family), 0, `ping's stray, IPv${family}`);
    assert.is(value('nettools_traceroute_unmatched_errors_total', family), 0, `traceroute's unmatched errors, IPv${family}`);
  }
  assert.equal(result.sockets, { v4: 1, v6: 1 });
});

test.run();

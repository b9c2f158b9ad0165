import * as assert from 'uvu/assert';

// What each README example must answer against `npm run try`, recognised by what it asks for. An example
// the test does not recognise fails: every example in the block is checked, none is skipped.

export type Kind = 'ping-address' | 'ping-name' | 'dns' | 'traceroute' | 'mtr' | 'tcp' | 'http' | 'streamed-ping' | 'openapi';

export function kindOf(command: string): Kind {
  const path = /localhost:\$\{PORT:-8080\}(\/[^\s'"]*)/.exec(command)?.[1];
  const body = /-d '([^']*)'/.exec(command)?.[1];
  const host = body === undefined ? undefined : (JSON.parse(body) as { host?: string }).host;
  if (path === '/api/tools/ping' && command.includes('application/x-ndjson')) return 'streamed-ping';
  if (path === '/api/tools/ping') return host !== undefined && /^[\d.]+$/.test(host) ? 'ping-address' : 'ping-name';
  if (path === '/api/tools/dns') return 'dns';
  if (path === '/api/tools/traceroute') return 'traceroute';
  if (path === '/api/tools/mtr') return 'mtr';
  if (path === '/api/tools/tcp') return 'tcp';
  if (path === '/api/tools/http') return 'http';
  if (path === '/openapi.json') return 'openapi';
  throw new Error(`an example the trial test does not know (it must use localhost:\${PORT:-8080}): ${command}`);
}

// Only a 200 carries these fields: a refusal is a problem document (type, title, status, code).
export function checkAnswer(kind: Kind, stdout: string): void {
  if (kind === 'streamed-ping') {
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; data: any });
    assert.is(events[0]?.event, 'start', stdout);
    assert.ok(events.some((e) => e.event === 'reply' && e.data.status === 'reply'), stdout);
    const last = events[events.length - 1];
    assert.is(last?.event, 'summary', stdout);
    assert.is(last?.data.reachable, true, stdout);
    return;
  }
  const answer = JSON.parse(stdout);
  if (kind === 'ping-address' || kind === 'ping-name') {
    assert.is(answer.reachable, true, stdout);
    assert.is(answer.address, '127.0.0.1', stdout);
    assert.is(answer.packets.received, answer.packets.sent, stdout);
  } else if (kind === 'dns') {
    assert.is(answer.consistent, true, stdout);
    assert.is(answer.resolvers.length, 2, stdout); // "several resolvers": the trial's Knot on two addresses
    assert.equal(answer.records.A.map((r: { address: string }) => r.address), ['127.0.0.1'], stdout);
    // The example sets dnssec, and the trial's Knot signs try.test: each resolver's A answer carries its RRSIG.
    for (const r of answer.resolvers) assert.is(r.queries.A.rrsigs?.[0]?.typeCovered, 'A', stdout);
  } else if (kind === 'traceroute') {
    assert.is(answer.destinationReached, true, stdout);
    assert.is(answer.hops[0].ttl, 1, stdout);
  } else if (kind === 'mtr') {
    assert.is(answer.destinationReached, true, stdout);
    assert.equal(answer.hops.map((h: { ttl: number; sent: number; received: number }) => [h.ttl, h.sent, h.received]), [[1, 3, 3]], stdout);
  } else if (kind === 'tcp') {
    // The trial server connected to its own port: every attempt established.
    assert.equal([answer.connected, answer.attempts.sent, answer.attempts.connected], [true, 3, 3], stdout);
    assert.ok(answer.results.every((r: { status: string; connectMs: number }) => r.status === 'connected' && r.connectMs > 0), stdout);
  } else if (kind === 'http') {
    // The trial server asked about its own /health, by a name of the trial zone.
    assert.equal([answer.status, answer.address, answer.body.bytes], [200, '127.0.0.1', '{"status":"ok"}'.length], stdout);
    assert.ok(answer.timings.connectMs > 0 && answer.timings.firstByteMs >= 0, stdout);
  } else {
    assert.match(answer.openapi, /^3\.1\./);
  }
}

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer } from '../support/server';

async function scrape(base: string) {
  const reply = await request(base, '/metrics');
  assert.is(reply.status, 200);
  assert.match(String(reply.headers['content-type']), 'text/plain');
  return parsePromText(reply.text);
}

test('request counters move by exactly the traffic sent', async () => {
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '2/60s' });
  try {
    const before = await scrape(server.base);
    await request(server.base, '/health');
    await request(server.base, '/health');
    await request(server.base, '/no/such/path');
    for (let i = 0; i < 3; i++) await postJson(server.base, '/api/tools/ping', { host: 'bad host' });
    const after = await scrape(server.base);
    const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    assert.is(delta('nettools_http_requests_total', { route: '/health', method: 'GET', status: '200' }), 2);
    assert.is(delta('nettools_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }), 1);
    assert.is(delta('nettools_http_requests_total', { route: '/api/tools/ping', method: 'POST', status: '400' }), 2);
    assert.is(delta('nettools_http_problems_total', { code: 'rate-limited' }), 1);
    assert.is(delta('nettools_http_problems_total', { code: 'validation-failed' }), 2);
    assert.is(delta('nettools_http_request_duration_seconds_count', { route: '/api/tools/ping' }), 3);
    assert.is(sampleValue(after, 'nettools_rate_limit_clients'), 1);
    // The scrape being answered is itself in flight; nothing else is.
    assert.is(sampleValue(after, 'nettools_http_requests_in_flight'), 1);
  } finally {
    await server.stop();
  }
});

test('process and event-loop metrics are exposed', async () => {
  const server = await startServer();
  try {
    const names = new Set((await scrape(server.base)).map((s) => s.name));
    assert.ok(names.has('process_resident_memory_bytes'));
    assert.ok(names.has('nodejs_eventloop_lag_seconds'));
  } finally {
    await server.stop();
  }
});

test('NETTOOLS_METRICS=false turns /metrics off', async () => {
  const server = await startServer({ NETTOOLS_METRICS: 'false' });
  try {
    assertProblem(await request(server.base, '/metrics'), 404, 'not-found');
  } finally {
    await server.stop();
  }
});

test.run();

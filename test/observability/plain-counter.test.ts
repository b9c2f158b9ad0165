import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Counter, Registry } from 'prom-client';
import { PlainCounter } from '../../src/observability/plain-counter';

test('a two-label counter exposes what prom-client exposes for the same increments', async () => {
  const ours = new Registry();
  const theirs = new Registry();
  const mine = new PlainCounter(ours, 't_total', 'Help.', ['resolver', 'rcode']);
  const reference = new Counter({ name: 't_total', help: 'Help.', labelNames: ['resolver', 'rcode'], registers: [theirs] });
  const incs: Array<[string, string, number]> = [
    ['a', 'NOERROR', 1],
    ['b', 'NXDOMAIN', 1],
    ['a', 'NOERROR', 3],
    ['b', 'timeout', 1],
    ['a', 'SERVFAIL', 2],
  ];
  for (const [resolver, rcode, by] of incs) {
    mine.inc(resolver, rcode, by);
    reference.inc({ resolver, rcode }, by);
  }
  assert.is(await ours.metrics(), await theirs.metrics());
});

test('a one-label counter counts each value apart and keeps counting across scrapes', async () => {
  const registry = new Registry();
  const counter = new PlainCounter(registry, 'o_total', 'Help.', ['outcome']);
  counter.inc('ok');
  counter.inc('ok');
  counter.inc('upstream-timeout');
  assert.match(await registry.metrics(), 'o_total{outcome="ok"} 2');
  counter.inc('ok');
  const text = await registry.metrics();
  assert.match(text, 'o_total{outcome="ok"} 3');
  assert.match(text, 'o_total{outcome="upstream-timeout"} 1');
});

test('a two-label counter counts each pair of values apart, whatever characters they hold', async () => {
  const registry = new Registry();
  const counter = new PlainCounter(registry, 'p_total', 'Help.', ['first', 'second']);
  counter.inc('a\u0000b', 'c');
  counter.inc('a', 'b\u0000c', 2);
  const text = await registry.metrics();
  assert.match(text, 'p_total{first="a\u0000b",second="c"} 1');
  assert.match(text, 'p_total{first="a",second="b\u0000c"} 2');
});

test.run();

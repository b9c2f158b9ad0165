import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Deadlines } from '../../src/http/deadlines';

function withClock() {
  let now = 0;
  const d = new Deadlines(1_000_000, () => now);
  return { d, advance: (ms: number) => (now += ms) };
}

test('a deadline fires once its time has passed, not before', () => {
  const { d, advance } = withClock();
  let fired = 0;
  d.add(100, () => fired++);
  advance(99);
  d.sweep();
  assert.is(fired, 0);
  advance(1);
  d.sweep();
  assert.is(fired, 1);
  d.sweep();
  assert.is(fired, 1);
  d.close();
});

test('a removed deadline never fires', () => {
  const { d, advance } = withClock();
  let fired = false;
  const deadline = d.add(10, () => (fired = true));
  d.remove(deadline);
  advance(20);
  d.sweep();
  assert.not.ok(fired);
  assert.is(d.size, 0);
  d.close();
});

test('only the expired ones of many fire', () => {
  const { d, advance } = withClock();
  const fired: number[] = [];
  for (const ms of [30, 10, 20]) d.add(ms, () => fired.push(ms));
  advance(20);
  d.sweep();
  assert.equal(fired.sort(), [10, 20]);
  assert.is(d.size, 1);
  d.close();
});

test('deadlines added out of order fire in time order, and removing any one keeps the rest', () => {
  const { d, advance } = withClock();
  const fired: number[] = [];
  const entries = [50, 10, 40, 20, 30].map((ms) => d.add(ms, () => fired.push(ms)));
  d.remove(entries[2]!); // 40
  d.remove(entries[2]!); // twice is harmless
  advance(100);
  d.sweep();
  assert.equal(fired, [10, 20, 30, 50]);
  assert.is(d.size, 0);
  d.close();
});

test('close drops every pending deadline without firing it', () => {
  const { d, advance } = withClock();
  let fired = 0;
  for (const ms of [1, 2, 3]) d.add(ms, () => fired++);
  d.close();
  advance(10);
  d.sweep();
  assert.is(fired, 0);
  assert.is(d.size, 0);
});

test.run();

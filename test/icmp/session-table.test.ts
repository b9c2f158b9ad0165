import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SessionTable } from '../../src/engines/icmp/session-table';

const test = suite('the pings that report, by session');

const entry = (session: number) => ({ session });

test('a session is found by its id, and not once deleted', () => {
  const table = new SessionTable<{ session: number }>(4);
  const a = entry(3);
  table.set(a);
  assert.is(table.get(3), a);
  table.delete(3);
  assert.is(table.get(3), undefined);
});

test('sessions whose low bits match are both found, and each goes alone', () => {
  const table = new SessionTable<{ session: number }>(4);
  const [a, b, c] = [entry(5), entry(5 + 16), entry(5 + 32)];
  for (const e of [a, b, c]) table.set(e);
  assert.is(table.get(5), a);
  assert.is(table.get(21), b);
  assert.is(table.get(37), c);
  table.delete(5);
  assert.is(table.get(5), undefined);
  assert.is(table.get(21), b);
  assert.is(table.get(37), c);
  table.delete(37);
  assert.is(table.get(21), b);
  assert.is(table.get(37), undefined);
});

test('a session whose place another held before is found there once that one is gone', () => {
  const table = new SessionTable<{ session: number }>(4);
  const [a, b] = [entry(2), entry(18)];
  table.set(a);
  table.delete(2);
  table.set(b);
  assert.is(table.get(18), b);
  assert.is(table.get(2), undefined);
});

test('an id never set is not found, whatever holds its place', () => {
  const table = new SessionTable<{ session: number }>(4);
  table.set(entry(7));
  assert.is(table.get(23), undefined);
  assert.is(table.get(8), undefined);
});

test('values lists every session held, clear none', () => {
  const table = new SessionTable<{ session: number }>(4);
  const all = [entry(1), entry(17), entry(2), entry(2 ** 40 + 1)];
  for (const e of all) table.set(e);
  assert.equal(table.values().map((e) => e.session).sort((x, y) => x - y), [1, 2, 17, 2 ** 40 + 1]);
  assert.is(table.get(2 ** 40 + 1), all[3]);
  table.clear();
  assert.equal(table.values(), []);
  assert.is(table.get(1), undefined);
});

test.run();

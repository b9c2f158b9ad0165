import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LinkedList } from '../../src/util/linked-list';

test('drain gives every value still held and leaves the list empty', () => {
  const list = new LinkedList<string>();
  list.push('a');
  list.push('b');
  list.push('c');
  assert.equal(list.drain().sort(), ['a', 'b', 'c']);
  assert.is(list.size, 0);
  assert.equal(list.drain(), []);
});

test('a removed value is not drained, whatever its place in the list', () => {
  for (const gone of ['first', 'middle', 'last']) {
    const list = new LinkedList<string>();
    const nodes = new Map(['first', 'middle', 'last'].map((v) => [v, list.push(v)]));
    assert.ok(list.remove(nodes.get(gone)!));
    assert.is(list.size, 2);
    assert.equal(list.drain().sort(), ['first', 'middle', 'last'].filter((v) => v !== gone).sort(), gone);
  }
});

test('removing a node a second time answers false and changes nothing', () => {
  const list = new LinkedList<number>();
  const one = list.push(1);
  list.push(2);
  assert.ok(list.remove(one));
  assert.not.ok(list.remove(one));
  assert.is(list.size, 1);
  assert.equal(list.drain(), [2]);
});

test('a drained node answers false when removed afterwards', () => {
  const list = new LinkedList<number>();
  const node = list.push(7);
  list.drain();
  assert.not.ok(list.remove(node));
  assert.is(list.size, 0);
});

test('a removed node holds no neighbours', () => {
  const list = new LinkedList<number>();
  list.push(1);
  const middle = list.push(2);
  list.push(3);
  list.remove(middle);
  assert.is(middle.prev, null);
  assert.is(middle.next, null);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshRequestId, requestId } from '../../src/http/request-id';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("a caller's short plain id is kept", () => {
  assert.is(requestId('probe-7:run.2_a'), 'probe-7:run.2_a');
});

test('no id, a long one, or one with other characters gets a fresh UUID', () => {
  for (const incoming of ['', 'x'.repeat(65), 'a b', 'id\u00e9', 'a/b']) assert.match(requestId(incoming), UUID_V4);
});

test('fresh ids are version 4 UUIDs with the RFC variant, across several batches', () => {
  for (let i = 0; i < 1000; i++) assert.match(freshRequestId(), UUID_V4);
});

test('fresh ids do not repeat, across several batches', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) seen.add(freshRequestId());
  assert.is(seen.size, 2000);
});

test('every byte takes its random values: all 256 but where version and variant fix some bits', () => {
  // A byte written wrong (a nibble read twice, a constant, a byte taken from the wrong place) shows as
  // one that takes fewer values than 600 random draws give it.
  const bytes = Array.from({ length: 600 }, () => Buffer.from(freshRequestId().replaceAll('-', ''), 'hex'));
  for (let at = 0; at < 16; at++) {
    const values = new Set(bytes.map((b) => b[at])).size;
    const possible = at === 6 ? 16 : at === 8 ? 64 : 256;
    assert.ok(values <= possible && values >= possible * 0.75, `byte ${at} took ${values} values of ${possible}`);
  }
});

test.run();

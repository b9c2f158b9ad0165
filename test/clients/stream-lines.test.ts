import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineSplitter } from '../../clients/typescript/src/lines';
import { parseEventLine } from '../../clients/typescript/src/stream';

// The client's NDJSON reading, fed bytes as a network may deliver them.
const bytes = (text: string) => new TextEncoder().encode(text);

function splitEvery(data: Uint8Array, size: number): string[] {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  for (let i = 0; i < data.length; i += size) lines.push(...splitter.push(data.subarray(i, i + size)));
  assert.is(splitter.end(), '');
  return lines;
}

const TEXT = '{"event":"start","data":{"domain":"bücher.example"}}\n{"event":"answer","data":{"value":"✓ 日本 😀"}}\n{"event":"summary","data":{}}\n';

test('lines fed one byte at a time come out whole, multi-byte characters included', () => {
  const lines = splitEvery(bytes(TEXT), 1);
  assert.equal(lines, TEXT.split('\n').slice(0, 3));
  assert.equal(parseEventLine(lines[1]!), { event: 'answer', data: { value: '✓ 日本 😀' } });
});

test('every chunk size gives the same lines', () => {
  const whole = splitEvery(bytes(TEXT), 1 << 20);
  for (let size = 2; size <= 17; size++) assert.equal(splitEvery(bytes(TEXT), size), whole, `chunks of ${size}`);
});

test('a four-byte character split after each of its bytes is decoded once, not as replacement characters', () => {
  const data = bytes('{"x":"😀"}\n');
  const at = data.indexOf(0xf0);
  for (const cut of [at + 1, at + 2, at + 3]) {
    const splitter = new LineSplitter();
    assert.equal(splitter.push(data.subarray(0, cut)), []);
    assert.equal(splitter.push(data.subarray(cut)), ['{"x":"😀"}']);
  }
});

test('several lines in one chunk and CRLF endings are split apart', () => {
  const splitter = new LineSplitter();
  assert.equal(splitter.push(bytes('a\r\nb\nc')), ['a', 'b']);
  assert.equal(splitter.push(bytes('\n')), ['c']);
});

test('a stream cut inside a line leaves that line unfinished at the end', () => {
  const splitter = new LineSplitter();
  assert.equal(splitter.push(bytes('{"event":"reply","data":{"se')), []);
  assert.is(splitter.end(), '{"event":"reply","data":{"se');
});

test('an event line needs a string event and a data member', () => {
  assert.equal(parseEventLine('{"event":"reply","data":{"seq":0}}'), { event: 'reply', data: { seq: 0 } });
  for (const line of ['{"event":"reply"}', '{"event":1,"data":{}}', '[1]', 'null', '<html>', '{"event":"reply","data":{}']) assert.is(parseEventLine(line), null, line);
});

// The server may open each line after the first with a space (it closes every HTTP chunk at once by
// writing ahead); the live page reads its streams through this client, so that must stay readable.
test('an event line opened by whitespace is the same event', () => {
  const splitter = new LineSplitter();
  const lines = splitter.push(bytes('{"event":"start","data":{}}\n {"event":"reply","data":{"seq":0}}\n {"event":"summary","data":{}}\n'));
  assert.equal(lines.map(parseEventLine), [{ event: 'start', data: {} }, { event: 'reply', data: { seq: 0 } }, { event: 'summary', data: {} }]);
});

test.run();

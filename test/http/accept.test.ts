import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { negotiate } from '../../src/http/accept';

test('no Accept header is JSON', () => {
  assert.is(negotiate(''), 'json');
});

test('*/* is JSON', () => {
  assert.is(negotiate('*/*'), 'json');
});

test('application/json is JSON', () => {
  assert.is(negotiate('application/json'), 'json');
});

test('application/x-ndjson is NDJSON', () => {
  assert.is(negotiate('application/x-ndjson'), 'ndjson');
});

test('text/event-stream is SSE', () => {
  assert.is(negotiate('text/event-stream'), 'sse');
});

test('media types are matched without regard to case and with spaces around parameters', () => {
  assert.is(negotiate('Text/Event-Stream ; charset=utf-8'), 'sse');
});

test('an unrelated type alone is JSON', () => {
  assert.is(negotiate('text/html'), 'json');
});

test("a browser's Accept is JSON", () => {
  assert.is(negotiate('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8'), 'json');
});

test('the highest q wins: NDJSON over JSON', () => {
  assert.is(negotiate('application/json;q=0.5, application/x-ndjson'), 'ndjson');
});

test('the highest q wins: SSE over NDJSON and JSON', () => {
  assert.is(negotiate('application/json;q=0.2, application/x-ndjson;q=0.4, text/event-stream;q=0.9'), 'sse');
});

test('the highest q wins: JSON over a streamed type', () => {
  assert.is(negotiate('application/x-ndjson;q=0.5, application/json;q=0.8'), 'json');
});

test('a tie between JSON and a streamed type goes to JSON', () => {
  assert.is(negotiate('application/x-ndjson, application/json'), 'json');
});

test('a streamed type named beside a weaker */* wins', () => {
  assert.is(negotiate('application/x-ndjson, */*;q=0.1'), 'ndjson');
});

test('q=0 makes a type not acceptable even when a wildcard would accept it', () => {
  assert.is(negotiate('*/*, application/json;q=0'), 'ndjson');
  assert.is(negotiate('text/event-stream;q=0, application/json;q=0.5'), 'json');
});

test('the most specific range decides a type q, not the order', () => {
  assert.is(negotiate('text/event-stream;q=0.1, text/*;q=1, application/json;q=0.5'), 'json');
});

test('a type wildcard covers the streamed type of its type', () => {
  assert.is(negotiate('text/*, application/json;q=0.5'), 'sse');
});

test('every type refused is JSON as always', () => {
  assert.is(negotiate('application/json;q=0, application/x-ndjson;q=0, text/event-stream;q=0'), 'json');
});

test('a malformed q ignores its range', () => {
  assert.is(negotiate('application/x-ndjson;q=2'), 'json');
  assert.is(negotiate('application/x-ndjson;q=abc, text/event-stream;q=0.5'), 'sse');
});

test('a range without a slash is ignored', () => {
  assert.is(negotiate('ndjson, text/event-stream'), 'sse');
});

test.run();

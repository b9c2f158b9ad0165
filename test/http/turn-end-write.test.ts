import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Exchange } from '../../src/http/exchange';
import type { HttpResponse } from '../../src/http/uws';
import { writeAtTurnEnd } from '../../src/http/write-batch';

// uWS's response object reduced to what Exchange touches, recording what reaches the socket.
function fakeResponse() {
  const wire: string[] = [];
  let aborted: () => void = () => {};
  const res = {
    onAborted(handler: () => void) {
      aborted = handler;
      return res;
    },
    cork(cb: () => void) {
      cb();
      return res;
    },
    writeStatus(head: string) {
      wire.push(head.split('\r\n')[0] as string);
      return res;
    },
    end(body: string) {
      wire.push(body);
      return res;
    },
  };
  return { res: res as unknown as HttpResponse, wire, abort: () => aborted() };
}

const noFault = (_ex: Exchange, err: unknown) => {
  throw err;
};

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

const test = suite('responses written at the end of the loop turn');

test('a response sent during a turn reaches the socket when the turn ends, not before', async () => {
  const { res, wire } = fakeResponse();
  const settled: Exchange[] = [];
  const ex = new Exchange(res, 'POST', '/api/tools/ping', '127.0.0.1', 0, (e) => settled.push(e), noFault);
  ex.send(400, 'application/problem+json', '{"code":"validation-failed"}');
  assert.equal(wire, []);
  assert.is(settled.length, 0);
  await turnEnd();
  assert.equal(wire, ['400 Bad Request', '{"code":"validation-failed"}']);
  assert.equal(settled, [ex]);
});

test('a client gone before the turn ends gets nothing written and is settled once, as aborted', async () => {
  const { res, wire, abort } = fakeResponse();
  const settled: Exchange[] = [];
  const ex = new Exchange(res, 'POST', '/api/tools/ping', '127.0.0.1', 0, (e) => settled.push(e), noFault);
  ex.send(200, 'application/json', '{}');
  abort();
  await turnEnd();
  assert.equal(wire, []);
  assert.equal(settled, [ex]);
  assert.ok(ex.aborted);
});

test('a second send is ignored: one response per exchange', async () => {
  const { res, wire } = fakeResponse();
  const ex = new Exchange(res, 'GET', '/health', '127.0.0.1', 0, () => {}, noFault);
  ex.send(200, 'application/json', 'first');
  ex.send(500, 'application/json', 'second');
  await turnEnd();
  assert.equal(wire, ['200 OK', 'first']);
});

test('one write that throws does not keep the others of its turn from going out', async () => {
  const written: string[] = [];
  const thrown: unknown[] = [];
  process.once('uncaughtException', (e) => thrown.push(e));
  writeAtTurnEnd({ writeNow: () => written.push('a') });
  writeAtTurnEnd({ writeNow: () => { throw new Error('boom'); } });
  writeAtTurnEnd({ writeNow: () => written.push('c') });
  await turnEnd();
  await turnEnd();
  assert.equal(written, ['a', 'c']);
  assert.is((thrown[0] as Error | undefined)?.message, 'boom');
});

test.run();

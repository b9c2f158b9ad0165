import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { holdRequest } from '../support/raw-http';
import { startServer } from '../support/server';
import { sleep } from '../support/wait';

// Tests run the server at log level silent: the drain must not depend on request logging.
test('shutdown resolves as soon as the last in-flight request finishes, whatever the log level', async () => {
  const server = await startServer();
  const held = await holdRequest(server.port, { seen: () => server.app.inFlight() === 1 });
  const started = Date.now();
  const drained = server.app.shutdown(5000);
  await sleep(50); // the request finishes while the drain already waits, not in the same turn as it starts
  held.finish();
  const { unfinished } = await drained;
  assert.is(unfinished, 0);
  // A behaviour, not a speed target: waiting out the grace would take the whole 5 s.
  assert.ok(Date.now() - started < 2500, `drain took ${Date.now() - started} ms`);
  held.socket.destroy();
  await server.stop();
});

test.run();

import { createServer, type Server } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { claimPort, PortUnavailableError } from '../../src/http/port-owner';
import { loadNativeUws } from '../../src/http/uws';
import { request } from '../support/http';
import { runToExit, spawnServer, stopServers } from '../support/child-server';
import { accepts, freeTcpPort } from '../support/ports';

// A port another process already serves is refused at start, in one line, instead of shared with it
// through SO_REUSEPORT (src/http/port-owner.ts).

function listenPlain(): Promise<Server> {
  return new Promise((resolve) => {
    const s = createServer((socket) => socket.destroy());
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

const portOf = (s: Server) => (s.address() as { port: number }).port;

test('a port another program listens on stops the server with exit 2 and one line naming it', async () => {
  const other = await listenPlain();
  try {
    const { code, stderr } = await runToExit({ PORT: String(portOf(other)) });
    assert.is(code, 2);
    assert.is(stderr, `nettools: 127.0.0.1:${portOf(other)} is already served by another process; stop it or choose another PORT\n`);
  } finally {
    other.close();
  }
});

// A fixed port: uSockets sets SO_REUSEPORT only on a port it is given, not on one the kernel picks.
test('a second nettools on the port of a running one refuses to start, and the first keeps serving', async () => {
  const first = await spawnServer({ PORT: String(await freeTcpPort('127.0.0.1')) });
  try {
    const { code, stderr } = await runToExit({ PORT: String(first.port) });
    assert.is(code, 2);
    assert.match(stderr, 'is already served by another process');
    assert.is((await request(first.base, '/health')).status, 200);
  } finally {
    await stopServers(first);
  }
});

test('with worker threads a port already served is refused the same way', async () => {
  const other = await listenPlain();
  try {
    const { code, stderr } = await runToExit({ PORT: String(portOf(other)), NETTOOLS_WORKERS: '2' });
    assert.is(code, 2);
    assert.match(stderr, `127.0.0.1:${portOf(other)} is already served by another process`);
  } finally {
    other.close();
  }
});

test('a program that listens with SO_REUSEPORT cannot join the port of a running server', async () => {
  const first = await spawnServer({ PORT: String(await freeTcpPort('127.0.0.1')) });
  try {
    const uws = loadNativeUws();
    const app = uws.App();
    const joined = await new Promise<boolean>((resolve) => {
      // Options 0: uSockets' default, SO_REUSEPORT, as a second uWebSockets.js server would listen.
      (app.listen as unknown as (h: string, p: number, o: number, cb: (s: unknown) => void) => void).call(app, '127.0.0.1', first.port, 0, (socket) => {
        if (socket) uws.us_listen_socket_close(socket as never);
        resolve(Boolean(socket));
      });
    });
    assert.is(joined, false);
    assert.is((await request(first.base, '/health')).status, 200);
  } finally {
    await stopServers(first);
  }
});

test('the check binds a free port and leaves nothing listening there', async () => {
  const port = await freeTcpPort('127.0.0.1');
  assert.is(claimPort('127.0.0.1', port), port);
  assert.is(await accepts(port), false);
});

test('the check of port 0 gives the port the kernel picked', () => {
  assert.ok(claimPort('127.0.0.1', 0) > 0);
});

test('the check names a port in use, and an address the host lacks, by code', async () => {
  const other = await listenPlain();
  const refusal = (host: string, port: number) => {
    try {
      claimPort(host, port);
    } catch (err) {
      return err instanceof PortUnavailableError ? err.code : 'not a refusal';
    }
    return 'claimed';
  };
  try {
    assert.is(refusal('127.0.0.1', portOf(other)), 'in-use');
    assert.is(refusal('198.18.255.254', 0), 'no-such-address'); // no interface here has it
  } finally {
    other.close();
  }
});

test.run();

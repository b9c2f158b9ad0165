import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { waitFor } from '../support/wait';
import { openTcpConnector, type ConnectAttempt, type TcpConnector } from '../../src/engines/tcp/connector';
import { parseAddress, type Address } from '../../src/net/address';
import { netnsTracker } from '../support/netns';
import { freeTcpPort } from '../support/ports';
import { listenTcp } from '../support/tcp-listener';

const test = suite<{ connector: TcpConnector }>('TcpEngine: timed connects on real sockets');
const spaces = netnsTracker();

test.before((ctx) => {
  ctx.connector = openTcpConnector();
});

test.after((ctx) => {
  ctx.connector.close();
  spaces.dropAll();
});

function at(text: string): Address {
  const a = parseAddress(text);
  if (a === null) throw new Error(`not an address: ${text}`);
  return a;
}

function attempt(connector: TcpConnector, address: string, port: number, timeoutMs = 2000): Promise<ConnectAttempt> {
  return new Promise((resolve) => connector.connect(at(address), port, timeoutMs, resolve));
}

for (const address of ['127.0.0.1', '::1']) {
  test(`a listener on ${address} is connected to, timed, and closed without a byte sent`, async ({ connector }) => {
    const listener = await listenTcp(address);
    try {
      const a = await attempt(connector, address, listener.port);
      assert.is(a.outcome, 'connected');
      assert.ok(a.elapsedMs > 0);
      assert.is(a.errno, undefined);
      // The handshake may have ended inside connect(), and the result come before this process's listener
      // has accepted the connection: the kernel made it, the accept is the listener's own later turn.
      await waitFor('the listener to accept the connection', () => listener.accepted() === 1);
      await listener.closedByPeer();
      assert.is(listener.accepted(), 1);
      assert.is(listener.bytesReceived(), 0);
    } finally {
      await listener.stop();
    }
  });

  test(`a closed port on ${address} is refused with ECONNREFUSED`, async ({ connector }) => {
    const port = await freeTcpPort(address);
    const a = await attempt(connector, address, port);
    assert.is(a.outcome, 'refused');
    assert.is(a.errno, 'ECONNREFUSED');
  });
}

test('the result never comes from inside connect()', async ({ connector }) => {
  const port = await freeTcpPort('127.0.0.1');
  let returned = false;
  const outcome = await new Promise<ConnectAttempt>((resolve) => {
    connector.connect(at('127.0.0.1'), port, 1000, (a) => {
      assert.ok(returned, 'done was called before connect() returned');
      resolve(a);
    });
    returned = true;
  });
  assert.is(outcome.outcome, 'refused');
});

test('a connection the kernel completes inside connect() still answers on a later turn', async ({ connector }) => {
  const listener = await listenTcp('127.0.0.1');
  try {
    let returned = false;
    const outcome = await new Promise<ConnectAttempt>((resolve) => {
      connector.connect(at('127.0.0.1'), listener.port, 1000, (a) => {
        assert.ok(returned, 'done was called before connect() returned');
        resolve(a);
      });
      returned = true;
    });
    assert.is(outcome.outcome, 'connected');
  } finally {
    await listener.stop();
  }
});

test('a cancelled attempt closes its socket and never calls back', async ({ connector }) => {
  const listener = await listenTcp('127.0.0.1');
  try {
    let called = false;
    const cancel = connector.connect(at('127.0.0.1'), listener.port, 1000, () => (called = true));
    cancel();
    assert.is(connector.inFlight(), 0);
    // A later attempt's result comes after whatever the cancelled one could have delivered.
    await attempt(connector, '127.0.0.1', listener.port);
    assert.is(called, false);
  } finally {
    await listener.stop();
  }
});

for (const family of [4, 6] as const) {
  const iptables = family === 4 ? 'iptables' : 'ip6tables';

  test(`IPv${family}: SYNs dropped by the host time out after timeoutMs`, async ({ connector }) => {
    const ns = spaces.netns();
    ns.exec([iptables, '-A', 'INPUT', '-p', 'tcp', '--dport', '9', '--syn', '-j', 'DROP']);
    const a = await attempt(connector, family === 4 ? ns.nsV4 : ns.nsV6, 9, 300);
    assert.is(a.outcome, 'timeout');
    assert.is(a.errno, undefined);
    spaces.drop(ns);
  });

  // As the kernel names them: ICMPv6 administratively prohibited arrives as EACCES.
  const rejections: Array<[string, string]> =
    family === 4
      ? [['icmp-host-unreachable', 'EHOSTUNREACH'], ['icmp-admin-prohibited', 'EHOSTUNREACH']]
      : [['icmp6-addr-unreachable', 'EHOSTUNREACH'], ['icmp6-adm-prohibited', 'EACCES']];
  for (const [reject, errno] of rejections) {
    test(`IPv${family}: SYNs rejected with ${reject} are unreachable`, async ({ connector }) => {
      const ns = spaces.netns();
      ns.exec([iptables, '-A', 'INPUT', '-p', 'tcp', '--dport', '9', '-j', 'REJECT', '--reject-with', reject]);
      // 5 s: an ICMP error that reaches the socket while connect() still holds it (a namespace on this host
      // answers within the call) is only a soft error, acted upon at the SYN's retransmission a second
      // later; the kernel's ICMP rate limit may drop that one's error too, and the next is 3 s in.
      const a = await attempt(connector, family === 4 ? ns.nsV4 : ns.nsV6, 9, 5000);
      assert.is(a.outcome, 'unreachable');
      assert.is(a.errno, errno);
      spaces.drop(ns);
    });
  }
}

test('an address and family that do not agree are refused with invalid-argument', () => {
  const engine = new (require('../../src/native/addon').addon().TcpEngine)();
  try {
    assert.throws(() => engine.connect(new Uint8Array(4), 6, 80, 1000, () => undefined), (e: any) => e.code === 'invalid-argument');
    assert.throws(() => engine.connect(new Uint8Array(4), 4, 0, 1000, () => undefined), (e: any) => e.code === 'invalid-argument');
  } finally {
    engine.close();
  }
});

test.run();

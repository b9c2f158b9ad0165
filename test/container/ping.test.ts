import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseNdjson, postStream } from '../api/stream-reader';
import { postJson } from '../support/http';
import { createNetns } from '../support/netns';
import { ensureImage, NET_RAW_ONLY, runNettools } from '../support/podman';

// Ping from inside the container, the two ways docs/deploying.md ("In a container") gives: CAP_NET_RAW
// on the host's network, or no capability at all and a ping_group_range set in the container's own
// network namespace (--sysctl is refused with the host's network: the range there is the host's). The
// start-up line says which socket kind each got. Pings go to 127.0.0.1 and to a namespace made here.
const test = suite('ping in the container');

test.before(ensureImage);

test('with CAP_NET_RAW as its only capability it pings 127.0.0.1 on a raw socket, as its start-up line says', async () => {
  const server = await runNettools({ podmanArgs: [...NET_RAW_ONLY] });
  try {
    assert.equal(server.listening.ping.socketKinds, { v4: 'raw', v6: 'raw' });
    const reply = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 });
    assert.is(reply.status, 200, reply.text);
    assert.is(reply.json().reachable, true);
  } finally {
    await server.remove();
  }
});

test('on the host network it pings a host in a network namespace, through the veth pair to it', async () => {
  const ns = createNetns();
  const server = await runNettools({ podmanArgs: [...NET_RAW_ONLY] }).catch((err) => {
    ns.destroy();
    throw err;
  });
  try {
    const reply = await postJson(server.base, '/api/tools/ping', { host: ns.nsV4, count: 2, intervalMs: 200 });
    assert.is(reply.status, 200, reply.text);
    assert.is(reply.json().reachable, true);
    assert.is(reply.json().address, ns.nsV4);
  } finally {
    await server.remove();
    ns.destroy();
  }
});

test('with no capability and --sysctl ping_group_range in its own network, it pings on a datagram socket', async () => {
  // --network none: a namespace of its own with loopback alone; the client runs inside, with podman exec.
  const server = await runNettools({ hostNetwork: false, podmanArgs: ['--network', 'none', '--cap-drop', 'ALL', '--sysctl', 'net.ipv4.ping_group_range=0 2147483647'] });
  try {
    assert.is(server.listening.ping.socketKinds.v4, 'dgram');
    const port = server.listening.port as number;
    const script = `fetch('http://127.0.0.1:${port}/api/tools/ping',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({host:'127.0.0.1',count:1})}).then(async r=>console.log(JSON.stringify({status:r.status,body:await r.json()})))`;
    const run = await server.exec(['node', '-e', script]);
    const reply = JSON.parse(run.stdout.trim() || '{}');
    assert.is(reply.status, 200, run.stdout + run.stderr);
    assert.is(reply.body.reachable, true);
  } finally {
    await server.remove();
  }
});

test('a streamed ping (NDJSON) gets its start, each reply and the summary', async () => {
  const server = await runNettools({ podmanArgs: [...NET_RAW_ONLY] });
  try {
    const stream = await postStream(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 3, intervalMs: 200 }, 'application/x-ndjson');
    assert.is(stream.status, 200);
    await stream.ended;
    const events = parseNdjson(stream);
    assert.equal(events.map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'summary']);
    assert.equal(events.slice(1, 4).map((e) => e.data.seq), [0, 1, 2]);
  } finally {
    await server.remove();
  }
});

test.run();

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { MAIN } from '../support/child-server';
import { TEST_ENV } from '../support/server';

// The server as an operator runs it unprivileged: user nobody (65534), through setpriv, with CAP_NET_RAW
// alone, or with no capability at all. The datagram case runs in a network namespace made here, whose
// ping_group_range (a per-namespace setting) covers nobody's group; there the client runs inside too.

const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];
const RAW_ONLY = [...NOBODY, '--inh-caps=-all,+net_raw', '--ambient-caps=+net_raw', '--bounding-set=-all,+net_raw'];
const NO_CAPS = [...NOBODY, '--inh-caps=-all', '--bounding-set=-all'];
const ENV = { ...TEST_ENV, NETTOOLS_LOG_LEVEL: 'info', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

interface Started {
  child: ChildProcess;
  listening: Record<string, any>;
}

function start(prefix: string[]): Promise<Started> {
  const child = spawn(prefix[0] as string, [...prefix.slice(1), process.execPath, MAIN], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${err}`)), 10_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, listening: JSON.parse(line) });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

async function stop(s: Started): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

// POST /api/tools/ping from wherever `prefix` runs a command (the host, or inside a namespace).
function ping(prefix: string[], port: number): { status: number; body: any } {
  const script = `fetch('http://127.0.0.1:${port}/api/tools/ping',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({host:'127.0.0.1',count:1})}).then(async r=>console.log(JSON.stringify({status:r.status,body:await r.json()})))`;
  const out = execFileSync(prefix[0] ?? process.execPath, [...prefix.slice(1), ...(prefix.length ? [process.execPath] : []), '-e', script], { encoding: 'utf8', env: { PATH: ENV.PATH } });
  return JSON.parse(out.trim().split('\n').at(-1) as string);
}

const test = suite<{ ns: string }>('unprivileged runs');

test.before((ctx) => {
  ctx.ns = `ntpriv${process.pid}`;
  execFileSync('ip', ['netns', 'add', ctx.ns]);
  execFileSync('ip', ['netns', 'exec', ctx.ns, 'ip', 'link', 'set', 'lo', 'up']);
  execFileSync('ip', ['netns', 'exec', ctx.ns, 'sh', '-c', 'echo "65534 65534" > /proc/sys/net/ipv4/ping_group_range']);
});

test.after((ctx) => {
  try {
    execFileSync('ip', ['netns', 'del', ctx.ns]);
  } catch {
    // already gone
  }
});

test('nobody with CAP_NET_RAW alone pings 127.0.0.1 on a raw socket', async () => {
  const server = await start(['setpriv', ...RAW_ONLY]);
  try {
    assert.is(server.listening.ping.socketKinds.v4, 'raw');
    const reply = ping([], server.listening.port);
    assert.is(reply.status, 200, JSON.stringify(reply.body));
    assert.is(reply.body.reachable, true);
  } finally {
    await stop(server);
  }
});

test('nobody with no capability pings on a datagram socket where ping_group_range covers its group', async ({ ns }) => {
  const inside = ['ip', 'netns', 'exec', ns];
  const server = await start([...inside, 'setpriv', ...NO_CAPS]);
  try {
    assert.is(server.listening.ping.socketKinds.v4, 'dgram');
    const reply = ping(inside, server.listening.port);
    assert.is(reply.status, 200, JSON.stringify(reply.body));
    assert.is(reply.body.reachable, true);
  } finally {
    await stop(server);
  }
});

test('with neither, ping answers 503 engine-unavailable saying what to grant', async () => {
  const range = execFileSync('cat', ['/proc/sys/net/ipv4/ping_group_range'], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
  if ((range[0] as number) <= 65534 && 65534 <= (range[1] as number)) throw new Error(`this host's ping_group_range ${range.join(' ')} covers nobody: the case cannot be made here`);
  const server = await start(['setpriv', ...NO_CAPS]);
  try {
    const reply = ping([], server.listening.port);
    assert.is(reply.status, 503);
    assert.is(reply.body.code, 'engine-unavailable');
    assert.match(reply.body.detail, /grant the server CAP_NET_RAW \(or run it as root\), or widen net\.ipv4\.ping_group_range/);
  } finally {
    await stop(server);
  }
});

test.run();

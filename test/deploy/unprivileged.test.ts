import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN } from '../support/child-server';
import { TEST_ENV } from '../support/server';

// The server as an operator runs it unprivileged: user nobody (65534), through setpriv, with CAP_NET_RAW
// alone, or with no capability at all. ping_group_range is a per-namespace setting, so the cases without
// the capability run in network namespaces made here, each with its own range (one covering nobody's
// group, one covering no group), whatever the host's; the client runs inside too.

const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];
const RAW_ONLY = [...NOBODY, '--inh-caps=-all,+net_raw', '--ambient-caps=+net_raw', '--bounding-set=-all,+net_raw'];
const NO_CAPS = [...NOBODY, '--inh-caps=-all', '--bounding-set=-all'];
const ENV = { ...TEST_ENV, NETTOOLS_LOG_LEVEL: 'info', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

interface Started {
  child: ChildProcess;
  listening: Record<string, any>;
}

function start(prefix: string[], env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(prefix[0] as string, [...prefix.slice(1), process.execPath, MAIN], { env: { ...ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

const test = suite<{ covering: string; none: string }>('unprivileged runs');

function namespaceWithRange(name: string, range: string): string {
  execFileSync('ip', ['netns', 'add', name]);
  try {
    execFileSync('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
    execFileSync('ip', ['netns', 'exec', name, 'sh', '-c', `echo "${range}" > /proc/sys/net/ipv4/ping_group_range`]);
  } catch (err) {
    execFileSync('ip', ['netns', 'del', name]);
    throw err;
  }
  return name;
}

test.before((ctx) => {
  ctx.covering = namespaceWithRange(`ntpriv${process.pid}`, '65534 65534');
  ctx.none = namespaceWithRange(`ntnone${process.pid}`, '1 0');
});

test.after((ctx) => {
  for (const ns of [ctx.covering, ctx.none]) {
    if (!ns) continue;
    try {
      execFileSync('ip', ['netns', 'del', ns]);
    } catch {
      // already gone
    }
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

test('nobody with no capability pings on a datagram socket where ping_group_range covers its group', async ({ covering }) => {
  const inside = ['ip', 'netns', 'exec', covering];
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

test('with neither, ping answers 503 engine-unavailable saying what to grant', async ({ none }) => {
  const inside = ['ip', 'netns', 'exec', none];
  assert.is(execFileSync(inside[0] as string, [...inside.slice(1), 'cat', '/proc/sys/net/ipv4/ping_group_range'], { encoding: 'utf8' }).trim().split(/\s+/).join(' '), '1 0');
  const server = await start([...inside, 'setpriv', ...NO_CAPS]);
  try {
    const reply = ping(inside, server.listening.port);
    assert.is(reply.status, 503);
    assert.is(reply.body.code, 'engine-unavailable');
    assert.match(reply.body.detail, /grant the server CAP_NET_RAW \(or run it as root\), or widen net\.ipv4\.ping_group_range/);
  } finally {
    await stop(server);
  }
});

test('the keys CLI run as the service user (README) leaves a file that user owns, mode 0600, which the server run as that user loads', async () => {
  // The keys directory of the README: owned by the service user, mode 0700.
  const dir = mkdtempSync(join(tmpdir(), 'nt-keys-'));
  chownSync(dir, 65534, 65534);
  const keys = { NETTOOLS_API_KEYS_FILE: join(dir, 'api-keys'), NETTOOLS_PLANS: 'pro=600/60s:16' };
  try {
    const key = execFileSync('runuser', ['-u', 'nobody', '--', process.execPath, MAIN, 'keys', 'create', '--plan', 'pro'], { encoding: 'utf8', env: { PATH: ENV.PATH, ...keys } }).trim();
    const file = statSync(keys.NETTOOLS_API_KEYS_FILE);
    assert.equal([file.uid, file.gid, file.mode & 0o777], [65534, 65534, 0o600]);
    const server = await start(['setpriv', ...RAW_ONLY], keys);
    try {
      const limits = await fetch(`http://127.0.0.1:${server.listening.port}/api/limits`, { headers: { authorization: `Bearer ${key}` } });
      assert.is(limits.status, 200);
      assert.is(((await limits.json()) as { plan: string }).plan, 'pro');
    } finally {
      await stop(server);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

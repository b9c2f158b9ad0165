import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_SETTINGS } from '../../src/config/config';
import { ROOT } from '../architecture/source-files';

const unit = readFileSync(join(ROOT, 'deploy', 'nettools.service'), 'utf8');

function directives(name: string): string[] {
  return unit.split('\n').filter((l) => l.startsWith(`${name}=`)).map((l) => l.slice(name.length + 1));
}

test('systemd accepts the unit (install paths pointed at this checkout)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nt-unit-'));
  try {
    const file = join(dir, 'nettools.service');
    writeFileSync(file, unit.replaceAll('/opt/nettools', ROOT));
    const out = execFileSync('systemd-analyze', ['verify', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.is(out, '');
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('the unit runs as its own user with CAP_NET_RAW and nothing more', () => {
  assert.equal(directives('User'), ['nettools']);
  assert.equal(directives('AmbientCapabilities'), ['CAP_NET_RAW']);
  assert.equal(directives('CapabilityBoundingSet'), ['CAP_NET_RAW']);
  assert.equal(directives('NoNewPrivileges'), ['yes']);
  for (const name of ['ProtectSystem', 'ProtectHome', 'PrivateTmp', 'PrivateDevices', 'ProtectKernelTunables', 'ProtectKernelModules', 'ProtectControlGroups']) {
    assert.is(directives(name).length, 1, name);
  }
  assert.equal(directives('ProtectSystem'), ['strict']);
  assert.equal(directives('RestrictAddressFamilies'), ['AF_INET AF_INET6 AF_UNIX AF_NETLINK']);
  assert.equal(directives('ExecReload'), ['/bin/kill -HUP $MAINPID']);
  assert.equal(directives('EnvironmentFile'), ['-/etc/nettools/nettools.env']);
  assert.equal(directives('ReadWritePaths'), ['/etc/nettools']);
  assert.equal(directives('Restart'), ['on-failure']);
  assert.equal(directives('MemoryDenyWriteExecute'), []);
});

test('the environment example lists every setting with its default', () => {
  const example = readFileSync(join(ROOT, 'deploy', 'nettools.env.example'), 'utf8');
  for (const s of CONFIG_SETTINGS) assert.match(example, `#${s.variable}=${s.fallback}\n`);
});

test('the sysctl alternative widens ping_group_range', () => {
  assert.match(readFileSync(join(ROOT, 'deploy', '60-nettools.conf'), 'utf8'), /^net\.ipv4\.ping_group_range = \d+ \d+$/m);
});

test.run();

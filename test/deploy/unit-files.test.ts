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
  assert.equal(directives('RestrictAddressFamilies'), ['AF_INET AF_INET6 AF_UNIX AF_NETLINK']);
  assert.equal(directives('ExecReload'), ['/bin/kill -HUP $MAINPID']);
  assert.equal(directives('EnvironmentFile'), ['-/etc/nettools/nettools.env']);
  assert.equal(directives('Restart'), ['on-failure']);
  assert.equal(directives('MemoryDenyWriteExecute'), []);
});

test('the unit sees a read-only system, no home, its own /tmp and devices, and no kernel knobs', () => {
  assert.equal(directives('ProtectSystem'), ['strict']);
  for (const name of ['ProtectHome', 'PrivateTmp', 'PrivateDevices', 'ProtectKernelTunables', 'ProtectKernelModules', 'ProtectKernelLogs', 'ProtectControlGroups']) {
    assert.equal(directives(name), ['yes'], name);
  }
});

test('the unit can write nowhere: the server only reads its keys file, and the keys CLI runs outside it', () => {
  // StateDirectory/LogsDirectory/... would each make a directory writable to the service.
  for (const name of ['ReadWritePaths', 'ReadWriteDirectories', 'StateDirectory', 'ConfigurationDirectory', 'LogsDirectory', 'CacheDirectory', 'RuntimeDirectory']) {
    assert.equal(directives(name), [], name);
  }
});

test('the keys file lives in a directory of its own, outside /etc/nettools with the env file and TLS files', () => {
  const example = readFileSync(join(ROOT, 'deploy', 'nettools.env.example'), 'utf8');
  assert.match(example, /^# NETTOOLS_API_KEYS_FILE=\/var\/lib\/nettools\/keys\/api-keys$/m);
  const readme = readFileSync(join(ROOT, 'docs', 'deploying.md'), 'utf8'); // the deploy steps the README links to
  assert.match(readme, 'install -d -m 0755 /etc/nettools ');
  assert.match(readme, 'install -m 0600 deploy/nettools.env.example /etc/nettools/nettools.env');
  assert.match(readme, 'install -d -o nettools -g nettools -m 0700 /var/lib/nettools/keys\n');
  assert.match(readme, 'runuser -u nettools -- /usr/bin/node /opt/nettools/dist/src/main.js keys create');
  assert.not.match(readme, /-o nettools[^\n]*\/etc\/nettools/);
});

test('the unit may hold a file descriptor for each of many connections', () => {
  const [limit] = directives('LimitNOFILE');
  assert.ok(Number(limit) >= 65536, String(limit));
});

test('the environment example lists every setting with its default', () => {
  const example = readFileSync(join(ROOT, 'deploy', 'nettools.env.example'), 'utf8');
  for (const s of CONFIG_SETTINGS) assert.match(example, `#${s.variable}=${s.fallback}\n`);
});

test('the sysctl alternative widens ping_group_range', () => {
  assert.match(readFileSync(join(ROOT, 'deploy', '60-nettools.conf'), 'utf8'), /^net\.ipv4\.ping_group_range = \d+ \d+$/m);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../architecture/source-files';

// deploy/nettools-agent.service: an agent runs under the server unit's user, sandbox and capability.
const agent = readFileSync(join(ROOT, 'deploy', 'nettools-agent.service'), 'utf8');
const server = readFileSync(join(ROOT, 'deploy', 'nettools.service'), 'utf8');

const directives = (unit: string, name: string) => unit.split('\n').filter((l) => l.startsWith(`${name}=`)).map((l) => l.slice(name.length + 1));

test('systemd accepts the agent unit (install paths pointed at this checkout)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nt-unit-'));
  try {
    const file = join(dir, 'nettools-agent.service');
    writeFileSync(file, agent.replaceAll('/opt/nettools', ROOT));
    assert.is(execFileSync('systemd-analyze', ['verify', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), '');
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('the agent unit starts the agent command from its own environment file, and has no reload', () => {
  assert.equal(directives(agent, 'ExecStart'), ['/usr/bin/node /opt/nettools/dist/src/main.js agent']);
  assert.equal(directives(agent, 'EnvironmentFile'), ['/etc/nettools/agent.env']);
  assert.equal(directives(agent, 'ExecReload'), []);
});

test('the agent unit has the server unit\'s user, capability and sandbox', () => {
  const sandbox = ['User', 'Group', 'AmbientCapabilities', 'CapabilityBoundingSet', 'NoNewPrivileges', 'ProtectSystem', 'ProtectHome', 'PrivateTmp', 'PrivateDevices', 'ProtectKernelTunables', 'ProtectKernelModules', 'ProtectKernelLogs', 'ProtectControlGroups', 'RestrictNamespaces', 'RestrictAddressFamilies', 'SystemCallArchitectures', 'Restart'];
  for (const name of sandbox) assert.equal(directives(agent, name), directives(server, name), name);
  for (const name of ['ReadWritePaths', 'StateDirectory', 'LogsDirectory', 'CacheDirectory', 'RuntimeDirectory']) assert.equal(directives(agent, name), [], name);
});

test.run();

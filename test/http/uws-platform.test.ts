import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { currentPlatform, pickUwsBuild, versionAtLeast, type Platform, type UwsPick } from '../../src/http/uws-platform';

// Each branch of the choice, on any machine: the platform is a value, not this process.
const linux = (node: string, abi: string, glibc: string | null, arch = 'x64'): Platform => ({ node, abi, os: 'linux', arch, glibc });

const refusal = (pick: UwsPick): string => (pick.ok ? `chose ${pick.choice.module}` : pick.refusal);

test('Node 20 on glibc 2.36 gets the v20.30 binary for its ABI', () => {
  assert.equal(pickUwsBuild(linux('20.20.2', '115', '2.36')), {
    ok: true,
    choice: { build: 'uws-20.30', module: 'uWebSockets.js/binaries/uws_linux_x64_115.node' },
  });
});

for (const [node, abi] of [['22.21.1', '127'], ['24.21.0', '137'], ['26.1.0', '147']] as const) {
  const major = node.split('.')[0];
  test(`Node ${major} on glibc 2.41 gets the @uwsjs binary of its line`, () => {
    assert.equal(pickUwsBuild(linux(node, abi, '2.41')), {
      ok: true,
      choice: { build: 'uwsjs-20.69', module: `@uwsjs/linux-x64-${major}/uws.node` },
    });
  });
}

test('Node 24 on exactly glibc 2.38 is accepted', () => {
  assert.ok(pickUwsBuild(linux('24.21.0', '137', '2.38')).ok);
});

test('Node 24 on glibc 2.36 is refused, naming the glibc it needs, the systems that have it and Node 20', () => {
  assert.is(
    refusal(pickUwsBuild(linux('24.21.0', '137', '2.36'))),
    'Node 24 needs glibc ≥ 2.38 (Debian 13, Ubuntu 24.04); this system has 2.36: use Node 20 here, or a newer system',
  );
});

test('Node 20 on a glibc older than 2.27 is refused, naming the glibc it needs', () => {
  assert.is(
    refusal(pickUwsBuild(linux('20.20.2', '115', '2.17'))),
    'Node 20 needs glibc ≥ 2.27 (Debian 10, Ubuntu 18.04); this system has 2.17: use a newer system',
  );
});

test('a Linux without glibc (musl) is refused for every Node line', () => {
  for (const [node, abi] of [['20.20.2', '115'], ['24.21.0', '137']]) {
    assert.match(refusal(pickUwsBuild(linux(node!, abi!, null))), /needs glibc ≥ 2\.\d+ .*this system's C library is not glibc/);
  }
});

for (const node of ['18.20.4', '21.7.3', '23.11.0', '25.2.0', '27.0.0']) {
  test(`Node ${node} is refused, naming the supported lines`, () => {
    assert.is(refusal(pickUwsBuild(linux(node, '0', '2.41'))), `Node ${node} is not supported: nettools runs on Node 20, 22, 24 or 26 (even lines only)`);
  });
}

test('an architecture without a build is refused, naming it', () => {
  assert.is(refusal(pickUwsBuild(linux('24.21.0', '137', '2.41', 'arm'))), 'Node 24 has no uWebSockets.js build for linux-arm');
  assert.is(refusal(pickUwsBuild({ ...linux('20.20.2', '115', '2.36', 's390x') })), 'Node 20 has no uWebSockets.js build for linux-s390x');
});

test('macOS needs no glibc', () => {
  const pick = pickUwsBuild({ node: '24.21.0', abi: '137', os: 'darwin', arch: 'arm64', glibc: null });
  assert.equal(pick, { ok: true, choice: { build: 'uwsjs-20.69', module: '@uwsjs/darwin-arm64-24/uws.node' } });
});

test('every choice is a .node binary, never a package entry that could fall back to JavaScript', () => {
  for (const [node, abi] of [['20.20.2', '115'], ['22.21.1', '127'], ['24.21.0', '137'], ['26.1.0', '147']]) {
    const pick = pickUwsBuild(linux(node!, abi!, '2.41'));
    assert.ok(pick.ok && pick.choice.module.endsWith('.node'), refusal(pick));
  }
});

test('glibc versions compare by number, part by part', () => {
  assert.ok(versionAtLeast('2.38', '2.38'));
  assert.ok(versionAtLeast('2.41', '2.38'));
  assert.ok(versionAtLeast('3.0', '2.38'));
  assert.not.ok(versionAtLeast('2.9', '2.38'));
  assert.not.ok(versionAtLeast('2.36', '2.38'));
  assert.not.ok(versionAtLeast('2', '2.27'));
});

test("this process's glibc is the one the C library itself reports", () => {
  const here = currentPlatform();
  assert.is(here.node, process.versions.node);
  assert.is(here.abi, process.versions.modules);
  const reported = execFileSync('getconf', ['GNU_LIBC_VERSION'], { encoding: 'utf8' }).trim(); // "glibc 2.36"
  assert.is(`glibc ${here.glibc}`, reported);
});

test.run();

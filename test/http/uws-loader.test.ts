import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { HEADER_SECTION_LIMIT, loadNativeUws, UwsUnavailableError } from '../../src/http/uws';
import { currentPlatform, nodeMajor, pickUwsBuild } from '../../src/http/uws-platform';

const refusedWith = (pattern: RegExp) => (err: unknown) => err instanceof UwsUnavailableError && pattern.test((err as Error).message);
const major = nodeMajor(process.versions.node);

test('the build picked for this Node loads, as native code', () => {
  const uws = loadNativeUws({});
  assert.type(uws.App, 'function');
  assert.match(Function.prototype.toString.call(uws.App), '[native code]');
});

test('Node 20 loads the v20.30 build and Node 22, 24 and 26 the @uwsjs one', () => {
  const pick = pickUwsBuild(currentPlatform());
  assert.ok(pick.ok);
  assert.is(pick.ok && pick.choice.build, major === 20 ? 'uws-20.30' : 'uwsjs-20.69');
  console.log(`  (this run: Node ${process.versions.node}, glibc ${currentPlatform().glibc}, ${pick.ok ? pick.choice.build : '-'})`);
});

test('a Node line whose binary npm did not install is refused, saying to run npm ci with that Node', () => {
  // npm installs only the optional binary whose `engines` match the Node running it: never both 22 and 26.
  const other = major === 22 ? '26.1.0' : '22.21.1';
  const platform = { ...currentPlatform(), node: other, glibc: '2.41' };
  assert.throws(() => loadNativeUws({}, platform), refusedWith(new RegExp(`^@uwsjs/linux-x64-${other.split('.')[0]}/uws\\.node is not installed .*run \`npm ci\` with this Node`)));
});

test('a binary built for another Node ABI is refused with why it did not load', () => {
  // The Node 18 binary (ABI 108) ships in the same package as the Node 20 one.
  const platform = { ...currentPlatform(), node: '20.20.2', abi: '108', glibc: '2.36' };
  assert.throws(() => loadNativeUws({}, platform), refusedWith(/^uWebSockets\.js\/binaries\/uws_linux_x64_108\.node does not load on Node 20\.20\.2: \S/));
});

test('a platform nothing fits is refused with the one line the choice gives', () => {
  const platform = { ...currentPlatform(), node: '24.21.0', abi: '137', glibc: '2.36' };
  assert.throws(() => loadNativeUws({}, platform), refusedWith(/^Node 24 needs glibc ≥ 2\.38 \(Debian 13, Ubuntu 24\.04\); this system has 2\.36: use Node 20 here, or a newer system$/));
});

test('UWS_USE_FALLBACK in the environment is refused', () => {
  assert.throws(() => loadNativeUws({ UWS_USE_FALLBACK: '' }), refusedWith(/UWS_USE_FALLBACK/));
});

// Read by the v20.69 binary from the C environment when it loads (test/http/uws-build-edges.test.ts has the effect).
test('importing the loader sets the header section limit for the binary, and an operator value stands', () => {
  const read = (env: NodeJS.ProcessEnv) =>
    execFileSync(process.execPath, ['-e', `require(${JSON.stringify(require.resolve('../../src/http/uws'))}); process.stdout.write(process.env.UWS_HTTP_MAX_HEADERS_SIZE)`], { env, encoding: 'utf8' });
  const { UWS_HTTP_MAX_HEADERS_SIZE: _, ...clean } = process.env;
  assert.is(read(clean), String(HEADER_SECTION_LIMIT));
  assert.is(read({ ...clean, UWS_HTTP_MAX_HEADERS_SIZE: '8192' }), '8192');
});

test.run();

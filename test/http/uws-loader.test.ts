import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { binaryName, loadNativeUws, UwsUnavailableError } from '../../src/http/uws';

test('the native binary for this Node ABI loads', () => {
  const uws = loadNativeUws({});
  assert.type(uws.App, 'function');
});

test('a Node ABI without a shipped binary is refused, never served by the JS fallback', () => {
  assert.throws(() => loadNativeUws({}, '131'), (err: unknown) => err instanceof UwsUnavailableError && /uws_linux_x64_131\.node/.test((err as Error).message));
});

test('UWS_USE_FALLBACK in the environment is refused', () => {
  assert.throws(() => loadNativeUws({ UWS_USE_FALLBACK: '' }), (err: unknown) => err instanceof UwsUnavailableError);
});

test('binary names follow the package layout', () => {
  assert.is(binaryName('linux', 'x64', '115'), 'uws_linux_x64_115.node');
});

test.run();

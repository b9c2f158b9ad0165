import type * as Uws from 'uWebSockets.js';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';

// The package silently swaps in a slow pure-JS server when its binary does not load (or when
// UWS_USE_FALLBACK is set). We never go through that entry point: we load the native binary for this
// exact platform and Node ABI, and refuse to start when it is missing.
export class UwsUnavailableError extends Error {
  readonly code = 'uws-unavailable';
}

export function binaryName(platform = process.platform, arch = process.arch, abi = process.versions.modules): string {
  return `uws_${platform}_${arch}_${abi}.node`;
}

export function loadNativeUws(env: NodeJS.ProcessEnv = process.env, abi: string = process.versions.modules): typeof Uws {
  if (env['UWS_USE_FALLBACK'] !== undefined) {
    throw new UwsUnavailableError('UWS_USE_FALLBACK is set: refusing the slow JavaScript fallback server; unset it');
  }
  const name = binaryName(process.platform, process.arch, abi);
  let mod: typeof Uws;
  try {
    mod = require(`uWebSockets.js/binaries/${name}`) as typeof Uws;
  } catch (err) {
    throw new UwsUnavailableError(
      `native uWebSockets.js binary ${name} does not load on Node ${process.version} (${(err as Error).message.split('\n')[0]}); ` +
        'nettools needs Node 20 on glibc >= 2.27 for this build',
    );
  }
  if (!isNative(mod)) throw new UwsUnavailableError(`${name} is not a native module`);
  return mod;
}

// The native module is an addon whose App is a native function; the fallback's is JavaScript source.
function isNative(mod: typeof Uws): boolean {
  return typeof mod.App === 'function' && /\[native code\]/.test(Function.prototype.toString.call(mod.App));
}

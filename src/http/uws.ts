import { isMainThread } from 'node:worker_threads';
import type * as Uws from 'uWebSockets.js';
import { currentPlatform, nodeMajor, pickUwsBuild, type Platform, type UwsChoice } from './uws-platform';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';

// Both packages' entry points can end in something we do not want: the Node 20 package silently swaps in
// a slow pure-JS server when its binary does not load (or when UWS_USE_FALLBACK is set), and @uwsjs/core
// hides why its binary failed behind a generic message. We never go through either entry point: we require
// the .node binary of the build that fits this Node line and C library (./uws-platform), and refuse to
// start, in one line naming what would fit, when none does.
export class UwsUnavailableError extends Error {
  readonly code = 'uws-unavailable';
}

// The v20.69 build answers 431 (its own HTML) to a header section over UWS_HTTP_MAX_HEADERS_SIZE, 4 KiB
// unless set, so a long Authorization or X-Forwarded-For would never reach nettools to get the contract's
// 401 or 429, as it does on v20.30 (which reads far more and ignores the variable). The binary reads the
// variable once, when it is loaded, from the C environment: only the main thread's process.env reaches
// that, and in worker mode the main thread never loads the binary. Hence here, on import, where the main
// thread passes in either mode. An operator's own value stands.
export const HEADER_SECTION_LIMIT = 16 * 1024;
if (isMainThread) process.env['UWS_HTTP_MAX_HEADERS_SIZE'] ??= String(HEADER_SECTION_LIMIT);

export function loadNativeUws(env: NodeJS.ProcessEnv = process.env, platform: Platform = currentPlatform()): typeof Uws {
  if (env['UWS_USE_FALLBACK'] !== undefined) {
    throw new UwsUnavailableError('UWS_USE_FALLBACK is set: refusing the slow JavaScript fallback server; unset it');
  }
  const pick = pickUwsBuild(platform);
  if (!pick.ok) throw new UwsUnavailableError(pick.refusal);
  const mod = requireBinary(pick.choice, platform);
  if (!isNative(mod)) throw new UwsUnavailableError(`${pick.choice.module} is not a native module`);
  return mod;
}

function requireBinary(choice: UwsChoice, p: Platform): typeof Uws {
  let file: string;
  try {
    file = require.resolve(choice.module);
  } catch {
    // npm installs only the optional binary whose `engines` match the Node that ran `npm ci`.
    throw new UwsUnavailableError(
      `${choice.module} is not installed for Node ${nodeMajor(p.node)}: run \`npm ci\` with this Node (npm installs only the binary for the Node line that runs it)`,
    );
  }
  try {
    return require(file) as typeof Uws;
  } catch (err) {
    throw new UwsUnavailableError(`${choice.module} does not load on Node ${p.node}: ${(err as Error).message.split('\n')[0]}`);
  }
}

// The native module is an addon whose App is a native function; the fallback's is JavaScript source.
function isNative(mod: typeof Uws): boolean {
  return typeof mod.App === 'function' && /\[native code\]/.test(Function.prototype.toString.call(mod.App));
}

import path from 'node:path';
import type { NativeDnsEngineClass } from './dns-engine';
import type { NativeHttpEngineClass } from './http-engine';
import type { NativeIcmpEngineClass } from './icmp-engine';
import type { NativeTcpEngineClass } from './tcp-engine';

export type SocketOutcome = true | string; // true: it opened; string: why it was refused

export interface Capabilities {
  icmp: {
    v4: { dgram: SocketOutcome; raw: SocketOutcome };
    v6: { dgram: SocketOutcome; raw: SocketOutcome };
  };
}

export interface NativeAddon {
  version(): string;
  capabilities(): Capabilities;
  // For a worker thread: when it ends, however abruptly, the sockets uWS left open on its loop are
  // closed, so that Node does not abort the whole process (native/worker_teardown.cc).
  closeStrayPollsAtTeardown(): void;
  // Binds a TCP socket to host (an IP literal) and port and closes it, never listening: the port bound
  // (the kernel's pick for 0), or the errno's name (EADDRINUSE while anything listens there).
  claimTcpPort(host: string, port: number): number | string;
  // The engines' classes; their TypeScript sides (src/engines/*/native.ts) wrap them.
  IcmpEngine: NativeIcmpEngineClass;
  DnsEngine: NativeDnsEngineClass;
  TcpEngine: NativeTcpEngineClass;
  HttpEngine: NativeHttpEngineClass;
  // Calls `fire` at the end of the loop turn in which arm() was last called (src/native/turn-end.ts).
  TurnEnd: new (fire: () => void) => { arm(): void };
}

// Compiled to dist/src/native/addon.js; node-gyp writes build/<configuration>/ at the package root.
// ADDON_BUILDTYPE picks another configuration of binding.gyp (the sanitizer tests load `Sanitize`).
const BUILD_TYPE = /^[A-Za-z]+$/.test(process.env.ADDON_BUILDTYPE ?? '') ? process.env.ADDON_BUILDTYPE! : 'Release';
const ADDON_PATH = path.resolve(__dirname, '..', '..', '..', 'build', BUILD_TYPE, 'nettools.node');

let loaded: NativeAddon | undefined;

export function addon(): NativeAddon {
  loaded ??= require(ADDON_PATH) as NativeAddon;
  return loaded;
}

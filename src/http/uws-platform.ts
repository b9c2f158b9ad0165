// Which native uWebSockets.js build fits the running Node and C library, as a pure choice so every branch
// is testable on any machine. Two builds exist: the last one published for Node 20 (v20.30, under the
// `uWebSockets.js` alias) and the current one for Node 22, 24 and 26 (`@uwsjs/core`, one optional package
// per Node line). Each is linked against a minimum glibc; below it the binary fails to load with a
// linker message naming a symbol version, which tells an operator nothing about what to change.

export interface Platform {
  node: string; // process.versions.node
  abi: string; // process.versions.modules
  os: string;
  arch: string;
  glibc: string | null; // glibc at run time; null on another C library (musl) or another OS
}

export type UwsBuildName = 'uws-20.30' | 'uwsjs-20.69';

export interface UwsChoice {
  build: UwsBuildName;
  module: string; // what to require: the .node file itself, never a package entry with a JS fallback
}

export type UwsPick = { ok: true; choice: UwsChoice } | { ok: false; refusal: string };

interface Line {
  build: UwsBuildName;
  glibc: string;
  systems: string; // the first common systems that have that glibc
  arches: readonly string[];
  oses: readonly string[];
  module: (p: Platform, major: number) => string;
}

const LINES: ReadonlyMap<number, Line> = new Map<number, Line>([
  [20, {
    build: 'uws-20.30', glibc: '2.27', systems: 'Debian 10, Ubuntu 18.04', arches: ['x64', 'arm64', 'arm'],
    oses: ['linux', 'darwin', 'win32'], module: (p) => `uWebSockets.js/binaries/uws_${p.os}_${p.arch}_${p.abi}.node`,
  }],
  ...[22, 24, 26].map((major): [number, Line] => [major, {
    build: 'uwsjs-20.69', glibc: '2.38', systems: 'Debian 13, Ubuntu 24.04', arches: ['x64', 'arm64'],
    oses: ['linux', 'darwin', 'win32'], module: (p) => `@uwsjs/${p.os}-${p.arch}-${major}/uws.node`,
  }]),
]);

const SUPPORTED = 'Node 20, 22, 24 or 26';

export function nodeMajor(version: string): number {
  return Number(version.split('.')[0]);
}

// Numeric, part by part: '2.9' < '2.38'.
export function versionAtLeast(have: string, need: string): boolean {
  const a = have.split('.').map(Number);
  const b = need.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

export function pickUwsBuild(p: Platform): UwsPick {
  const major = nodeMajor(p.node);
  const line = LINES.get(major);
  if (line === undefined) {
    return { ok: false, refusal: `Node ${p.node} is not supported: nettools runs on ${SUPPORTED} (even lines only)` };
  }
  if (!line.oses.includes(p.os) || !line.arches.includes(p.arch)) {
    return { ok: false, refusal: `Node ${major} has no uWebSockets.js build for ${p.os}-${p.arch}` };
  }
  if (p.os === 'linux') {
    const need = `glibc ≥ ${line.glibc} (${line.systems})`;
    if (p.glibc === null) {
      return { ok: false, refusal: `Node ${major} needs ${need}; this system's C library is not glibc (musl?): use a glibc system` };
    }
    if (!versionAtLeast(p.glibc, line.glibc)) {
      const instead = major === 20 ? 'a newer system' : 'Node 20 here, or a newer system';
      return { ok: false, refusal: `Node ${major} needs ${need}; this system has ${p.glibc}: use ${instead}` };
    }
  }
  return { ok: true, choice: { build: line.build, module: line.module(p, major) } };
}

export function currentPlatform(): Platform {
  return { node: process.versions.node, abi: process.versions.modules, os: process.platform, arch: process.arch, glibc: runtimeGlibc() };
}

// glibc's version at run time from Node's diagnostic report (no child process, no parsing of ldd).
// Without excludeNetwork the report looks up the peer name of every open socket through the resolver.
function runtimeGlibc(): string | null {
  const report = process.report as (NodeJS.ProcessReport & { excludeNetwork?: boolean }) | undefined;
  if (report === undefined) return null;
  const before = report.excludeNetwork;
  report.excludeNetwork = true;
  try {
    const header = (report.getReport() as { header?: { glibcVersionRuntime?: unknown } }).header;
    return typeof header?.glibcVersionRuntime === 'string' ? header.glibcVersionRuntime : null;
  } finally {
    report.excludeNetwork = before;
  }
}

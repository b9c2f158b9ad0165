import type { TracePath } from '../../test/support/trace-path';

export interface Timed {
  wallMs: number;
  cpuMs: number;
}

// `bash -c` in the source namespace: the command's wall time ($EPOCHREALTIME) and its CPU (`times`, children).
export function timedInSource(p: TracePath, command: string): Timed {
  const script = `s=$EPOCHREALTIME; ${command} >/dev/null; e=$EPOCHREALTIME; echo $s $e; times`;
  const [span, , children] = p.exec(p.source.ns, ['bash', '-c', script]).trim().split('\n') as [string, string, string];
  const [s, e] = span.split(' ').map(Number) as [number, number];
  const seconds = (t: string) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  };
  const [user, sys] = children.split(' ').map(seconds) as [number, number];
  return { wallMs: (e - s) * 1000, cpuMs: (user + sys) * 1000 };
}

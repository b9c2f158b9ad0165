// Real servers for the client and CLI tests: nettools in this process, on loopback Knot resolvers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToExit } from '../support/child-server';
import { startKnot, type KnotServer } from '../support/knot';
import { createNetns, type Netns } from '../support/netns';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';

export const RECORDS = ['@ A 192.0.2.10', '@ MX 10 mail', '@ TXT "v=spf1 -all"', 'mail A 192.0.2.25'];

export interface Rig {
  knots: KnotServer[];
  open: RunningServer; // resolvers a and b agree, c has another TXT; private targets allowed
  limited: RunningServer; // a 2-token bucket refilled in 2 s
  keyed: RunningServer; // API keys on; `pro` is a key of plan pro
  pro: string;
  dir: string;
  silent: Netns; // a host that never answers an echo request
  lossy: Netns; // a host that drops every second echo request
}

// A key made as an operator makes one: `node dist/src/main.js keys create`.
async function createKey(env: Record<string, string>, plan: string): Promise<string> {
  const { code, stdout, stderr } = await runToExit(env, ['keys', 'create', '--plan', plan]);
  if (code !== 0) throw new Error(stderr);
  return stdout.trim();
}

function hosts(): { silent: Netns; lossy: Netns } {
  const silent = createNetns();
  silent.exec(['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=1']);
  const lossy = createNetns();
  lossy.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'echo-request', '-m', 'statistic', '--mode', 'nth', '--every', '2', '--packet', '1', '-j', 'DROP']);
  return { silent, lossy };
}

export async function startRig(base: number): Promise<Rig> {
  const a = await startKnot([{ domain: 'example.test', records: RECORDS }], `127.0.0.${base}`);
  const b = await startKnot([{ domain: 'example.test', records: RECORDS }], `127.0.0.${base + 1}`);
  const c = await startKnot([{ domain: 'example.test', records: [...RECORDS.slice(0, 2), '@ TXT "v=spf1 ~all"', RECORDS[3]!] }], `127.0.0.${base + 2}`);
  const resolvers = `a=${a.address}:${a.port},b=${b.address}:${b.port},c=${c.address}:${c.port}`;
  const common = { NETTOOLS_RESOLVERS: resolvers, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' };
  const dir = mkdtempSync(join(tmpdir(), 'nt-client-'));
  const keyEnv = { NETTOOLS_API_KEYS_FILE: join(dir, 'api-keys'), NETTOOLS_PLANS: 'pro=600/60s:16' };
  const pro = await createKey(keyEnv, 'pro');
  return {
    knots: [a, b, c],
    open: await startServer({ ...common, NETTOOLS_RATE_LIMIT: '100/60s' }),
    limited: await startServer({ ...common, NETTOOLS_RATE_LIMIT: '2/2s' }),
    keyed: await startServer({ ...common, ...keyEnv }),
    pro,
    dir,
    ...hosts(),
  };
}

export async function stopRig(rig: Partial<Rig>): Promise<void> {
  for (const s of [rig.open, rig.limited, rig.keyed]) await s?.stop();
  for (const k of rig.knots ?? []) await k.stop();
  rig.silent?.destroy();
  rig.lossy?.destroy();
  if (rig.dir) rmSync(rig.dir, { recursive: true, force: true });
}

// Waits (by asking /api/limits, which spends nothing) until the caller's bucket is full again.
export async function fullBucket(base: string): Promise<void> {
  await waitFor('a full bucket', async () => {
    const limits = (await (await fetch(`${base}/api/limits`)).json()) as { remaining: number; limit: number };
    return limits.remaining === limits.limit;
  }, { everyMs: 100 });
}

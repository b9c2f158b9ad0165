import { once } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Netns } from './netns';

const RESPONDER = path.resolve(__dirname, '..', '..', '..', 'test', 'support', 'icmp-responder.py');

// The test responder (icmp-responder.py) inside a namespace whose kernel no longer answers echoes
// itself; resolves once it says it is ready. Real-time priority: on a loaded machine a normal process
// wakes milliseconds late, which would show up in RTTs a test checks.
export async function startResponder(ns: Netns, args: string[]): Promise<ChildProcess> {
  ns.exec(['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=1']);
  const child = ns.spawn(['chrt', '-f', '10', 'python3', RESPONDER, ...args]);
  let out = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('responder did not start')), 5000);
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`responder exited with ${code}`));
    });
  });
  return child;
}

export async function stopResponder(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

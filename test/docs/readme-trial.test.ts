import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../architecture/source-files';
import { accepts, freeDnsPort, freeTcpPort } from '../support/ports';
import { waitFor } from '../support/wait';
import { commandsOf, markedBlock } from './readme-blocks';
import { checkAnswer, kindOf, type Kind } from './trial-answers';

// The README's trial as a reader runs it: its `npm run try` block in one shell, then each line of its
// Examples block in another, as written (PORT set, as the README says to pick another port; TRY_DNS_PORT
// for Knot, so the test never takes the defaults a person may be using). Real Knot, real server, curl.
const test = suite('README trial');

interface Trial {
  npm: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<void>;
}

async function startTrial(): Promise<Trial> {
  const [command, ...more] = commandsOf(markedBlock('server'));
  assert.equal(more, [], 'the trial block holds one command');
  const port = await freeTcpPort('127.0.0.1');
  const dnsPort = await freeDnsPort('127.0.0.1');
  const env = { ...process.env, PORT: String(port), TRY_DNS_PORT: String(dnsPort) };
  // Its own process group, as a terminal gives it: Ctrl-C reaches the whole group.
  const npm = spawn('bash', ['-c', command as string], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  npm.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  try {
    await waitFor('npm run try to print its examples', () => out.includes('Ctrl-C stops') || npm.exitCode !== null, { timeoutMs: 30_000 });
  } catch (err) {
    process.kill(-(npm.pid as number), 'SIGINT');
    throw err;
  }
  assert.ok(npm.exitCode === null, `npm run try ended early:\n${out}`);
  return { npm, port, output: () => out, exited };
}

// Every process below `pid` now, from /proc.
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone while listed
    }
  }
  const found: number[] = [];
  const walk = (p: number): void => (children.get(p) ?? []).forEach((c) => (found.push(c), walk(c)));
  walk(pid);
  return found;
}

const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

function shell(command: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', command], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, timeout: 30_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${command}\n${err.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

async function stopsEverything(trial: Trial, signal: () => void): Promise<void> {
  const below = descendants(trial.npm.pid as number);
  assert.ok(below.some((p) => commandOf(p).includes('knotd')), `no knotd under npm run try: ${below.map(commandOf)}`);
  assert.ok(below.some((p) => commandOf(p).includes('dist/src/main.js')), 'no nettools under npm run try');
  signal();
  await trial.exited;
  await waitFor('every process of the trial gone', () => below.every((p) => !existsSync(`/proc/${p}`)));
  assert.not.ok(await accepts(trial.port), 'nettools still listens');
  const tempDir = /knotd -c (\S+)\/knot\.conf/.exec(below.map(commandOf).join('\n'))?.[1];
  if (tempDir !== undefined) assert.not.ok(existsSync(tempDir), `${tempDir} left behind`);
}

test('every example in the README runs as written against npm run try and answers what it says', async () => {
  const trial = await startTrial();
  try {
    const seen = new Set<Kind>();
    for (const command of commandsOf(markedBlock('examples'))) {
      const kind = kindOf(command);
      seen.add(kind);
      checkAnswer(kind, await shell(command, trial.port));
    }
    assert.equal([...seen].sort(), ['dns', 'http', 'mtr', 'openapi', 'ping-address', 'ping-name', 'streamed-ping', 'tcp', 'traceroute']);
  } finally {
    // Ctrl-C in the terminal it runs in: SIGINT to its whole process group.
    await stopsEverything(trial, () => process.kill(-(trial.npm.pid as number), 'SIGINT'));
  }
});

test('SIGTERM to npm run try stops nettools and Knot, and leaves nothing behind', async () => {
  const trial = await startTrial();
  await stopsEverything(trial, () => {
    // bash -c gave npm the shell's pid: SIGTERM goes to npm alone, as a service manager or `kill` sends it.
    const npm = descendants(trial.npm.pid as number).find((p) => commandOf(p).startsWith('npm run try'));
    process.kill(npm ?? (trial.npm.pid as number), 'SIGTERM');
  });
});

test.run();

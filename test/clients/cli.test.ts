import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run } from '../../clients/typescript/src/cli/run';
import { freeTcpPort } from '../support/ports';
import { fullBucket, startRig, stopRig, type Rig } from './servers';

const test = suite<Rig>('nettools command line against a real server');
const BIN = resolve(__dirname, '../../../clients/typescript/dist/cli/main.js');

test.before(async (ctx) => {
  Object.assign(ctx, await startRig(121));
});

test.after(async (ctx) => {
  await stopRig(ctx);
});

interface Ran {
  code: number;
  out: string;
  err: string;
}

// The CLI in this process, with its output captured.
async function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('ping prints what ping prints and exits 0 when every echo is answered', async ({ open }) => {
  const r = await cli(['ping', '127.0.0.1', '--count', '2', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, `PING 127.0.0.1 (127.0.0.1) via ${open.base}`);
  assert.match(r.out, /64 bytes from 127\.0\.0\.1: icmp_seq=0 ttl=\d+ time=\d+\.\d{3} ms/);
  assert.match(r.out, '--- 127.0.0.1 ping statistics ---');
  assert.match(r.out, /2 packets transmitted, 2 received, 0% packet loss, time \d+ms/);
  assert.match(r.out, /rtt min\/avg\/max\/mdev = [\d.]+\/[\d.]+\/[\d.]+\/[\d.]+ ms/);
  assert.is(r.err, '');
});

test("ping takes ping's own -c, -i S, -W S and -s against the real server", async ({ open }) => {
  const r = await cli(['ping', '127.0.0.1', '-c', '2', '-i', '0.1', '-W', '0.5', '-s', '100', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /^108 bytes from 127\.0\.0\.1: icmp_seq=1 /m);
  assert.match(r.out, '2 packets transmitted, 2 received, 0% packet loss');
});

test('ping of a host that never answers exits 1', async ({ open, silent }) => {
  const r = await cli(['ping', silent.nsV4, '--count', '1', '--server', open.base]);
  assert.is(r.code, 1);
  assert.match(r.out, 'no reply for icmp_seq=0');
  assert.match(r.err, `nettools: ${silent.nsV4} (${silent.nsV4}) is unreachable`);
});

test('ping with packet loss exits 1', async ({ open, lossy }) => {
  const r = await cli(['ping', lossy.nsV4, '--count', '2', '--server', open.base]);
  assert.is(r.code, 1, r.out);
  assert.match(r.out, '2 packets transmitted, 1 received, 50% packet loss');
  assert.match(r.err, `nettools: 50% packet loss to ${lossy.nsV4}`);
});

test('dns prints an answer section as dig does and exits 0', async ({ open }) => {
  const r = await cli(['dns', 'example.test', '--type', 'MX,TXT', '--resolver', 'a', '--resolver', 'b', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, ';; ANSWER SECTION:');
  assert.match(r.out, 'example.test.\t300\tIN\tMX\t10 mail.example.test.');
  assert.match(r.out, 'example.test.\t300\tIN\tTXT\t"v=spf1 -all"');
  assert.match(r.out, /;; a \(127\.0\.0\.121\): MX NOERROR [\d.]+ ms, TXT NOERROR [\d.]+ ms/);
});

test('dns --expect found in every resolver, with --consistent, exits 0', async ({ open }) => {
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--expect', 'v=spf1 -all', '--consistent', '--resolver', 'a,b', '--server', open.base]);
  assert.is(r.code, 0, r.err);
});

test('dns --expect missing from one resolver exits 1 and names it', async ({ open }) => {
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--expect', 'v=spf1 -all', '--resolver', 'a,c', '--server', open.base]);
  assert.is(r.code, 1);
  assert.match(r.err, 'nettools: expected "v=spf1 -all" not in the answer of c');
});

test('dns --expect matches an MX exchange and an address without regard to case or the final dot', async ({ open }) => {
  const r = await cli(['dns', 'example.test', '--type', 'MX', '--type', 'A', '--expect', 'MAIL.example.test.', '--expect', '192.0.2.10', '--server', open.base]);
  assert.is(r.code, 0, r.err);
});

test('dns --consistent with resolvers that disagree exits 1', async ({ open }) => {
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--consistent', '--resolver', 'a,c', '--server', open.base]);
  assert.is(r.code, 1);
  assert.match(r.out, 'answers INCONSISTENT');
  assert.match(r.err, 'nettools: resolvers disagree about example.test');
});

test('dns of a name that does not exist exits 1 and says NXDOMAIN', async ({ open }) => {
  const r = await cli(['dns', 'nothing.example.test', '--resolver', 'a', '--server', open.base]);
  assert.is(r.code, 1);
  assert.match(r.out, /A NXDOMAIN/);
  assert.match(r.err, 'nettools: nothing.example.test: no such domain (NXDOMAIN)');
});

test('dns of a name every resolver refuses exits 5 and says what each resolver said', async ({ open }) => {
  // Knot refuses a name outside its zones: an upstream failure, not a missing record.
  const r = await cli(['dns', 'elsewhere.invalid', '--type', 'A', '--resolver', 'a', '--server', open.base]);
  assert.is(r.code, 5, r.err);
  assert.match(r.err, /no resolver answered/);
  assert.match(r.err, /REFUSED/);
});

test('--json prints the API answer as it came', async ({ open }) => {
  const r = await cli(['dns', 'example.test', '--type', 'A', '--resolver', 'a', '--json', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  const body = JSON.parse(r.out);
  assert.equal(body.records, { A: [{ address: '192.0.2.10', ttl: 300 }] });
});

test('usage errors exit 2 with the usage on stderr', async ({ open }) => {
  for (const args of [[], ['whois', '127.0.0.1'], ['ping'], ['ping', '127.0.0.1', '--count', 'two'], ['ping', '127.0.0.1', '--bogus'], ['ping', '127.0.0.1', '--type', 'MX'], ['dns', 'a.test', 'b.test'], ['ping', '127.0.0.1', '--server'], ['ping', '127.0.0.1', '--server', 'ftp://x']]) {
    const r = await cli([...args, ...(args.includes('--server') ? [] : ['--server', open.base])]);
    assert.is(r.code, 2, args.join(' '));
    assert.match(r.err, /^nettools: /, args.join(' '));
    assert.is(r.out, '');
  }
});

test('--help prints the usage on stdout and exits 0', async () => {
  const r = await cli(['--help']);
  assert.is(r.code, 0);
  assert.match(r.out, 'nettools ping HOST');
  assert.match(r.out, 'nettools trace HOST');
  assert.match(r.out, 'Exit status: 0 success; 1 measured but failed');
});

test("a refusal exits 3 with the problem's title and detail on stderr", async ({ open }) => {
  const r = await cli(['ping', '127.0.0.1', '--count', '50', '--server', open.base]);
  assert.is(r.code, 3);
  assert.match(r.err, 'nettools: refused by the server: 400 Request does not match the schema (validation-failed)');
  assert.match(r.err, 'nettools: the request body does not match the schema; see errors');
  assert.match(r.err, 'nettools:   /count: must be <= 10');
  assert.is(r.out, '');
});

test('a key from NETTOOLS_API_KEY is sent, and an unknown one is refused with exit 3', async ({ keyed, pro }) => {
  const refused = await cli(['dns', 'example.test', '--resolver', 'a'], { NETTOOLS_URL: keyed.base, NETTOOLS_API_KEY: `nt_${'B'.repeat(43)}` });
  assert.is(refused.code, 3);
  assert.match(refused.err, '401 The API key is malformed, unknown, revoked or expired (invalid-api-key)');
  const served = await cli(['dns', 'example.test', '--resolver', 'a', '--key', pro], { NETTOOLS_URL: keyed.base, NETTOOLS_API_KEY: `nt_${'B'.repeat(43)}` });
  assert.is(served.code, 0, served.err);
});

test('on a 429 the CLI waits as Retry-After says and says so on stderr; --no-wait exits 3 at once', async ({ limited }) => {
  await fullBucket(limited.base);
  const args = ['dns', 'example.test', '--type', 'A', '--resolver', 'a', '--server', limited.base];
  assert.is((await cli(args)).code, 0);
  assert.is((await cli(args)).code, 0);
  const waited = await cli(args);
  assert.is(waited.code, 0, waited.err);
  assert.match(waited.err, /^nettools: 429 rate-limited: waiting \d+ s as Retry-After says, then resending \(1\)$/);
  await fullBucket(limited.base);
  await cli(args);
  await cli(args);
  const hurried = await cli([...args, '--no-wait']);
  assert.is(hurried.code, 3);
  assert.match(hurried.err, '429 Rate limit exceeded (rate-limited)');
  assert.match(hurried.err, /Retry-After \d+ s/);
});

test('no server listening exits 4', async () => {
  const port = await freeTcpPort('127.0.0.1');
  const r = await cli(['ping', '127.0.0.1', '--server', `http://127.0.0.1:${port}`]);
  assert.is(r.code, 4);
  assert.match(r.err, `nettools: no answer from http://127.0.0.1:${port}`);
});

// The built command, as `nettools` runs from package.json's bin: its exit status is the process's.
function bin(args: string[]): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('exit', (code) => done({ code: code ?? -1, out, err }));
  });
}

test('the built bin exits with the status of its command', async ({ open }) => {
  assert.is((await bin(['ping', '127.0.0.1', '--count', '1', '--server', open.base])).code, 0);
  const refused = await bin(['ping', '127.0.0.1', '--count', '50', '--server', open.base]);
  assert.is(refused.code, 3);
  assert.match(refused.err, '(validation-failed)');
  assert.is((await bin(['nope'])).code, 2);
});

test.run();

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashKey } from '../../src/keys/api-key';
import { runToExit } from '../support/child-server';

const test = suite<{ dir: string; file: string; env: Record<string, string> }>('keys CLI');

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-cli-'));
  ctx.file = join(ctx.dir, 'keys');
  ctx.env = { NETTOOLS_API_KEYS_FILE: ctx.file, NETTOOLS_PLANS: 'pro=600/60s:16,enterprise=20000/60s:64' };
});

test.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

const keys = (env: Record<string, string>, ...args: string[]) => runToExit(env, ['keys', ...args]);

test('create prints the key alone, and the file holds its hash with mode 0600, never the key', async ({ env, file }) => {
  const { code, stdout, stderr } = await keys(env, 'create', '--plan', 'pro', '--label', 'office NAT', '--expires', '2099-12-31');
  assert.is(code, 0, stderr);
  assert.match(stdout, /^nt_[A-Za-z0-9_-]{43}\n$/);
  const key = stdout.trim();
  const text = readFileSync(file, 'utf8');
  assert.not.ok(text.includes(key));
  const record = JSON.parse(text);
  assert.is(record.sha256, hashKey(key));
  assert.is(record.id, key.slice(3, 11));
  assert.equal([record.plan, record.label, record.expires, record.revoked], ['pro', 'office NAT', '2099-12-31T00:00:00.000Z', null]);
  assert.is(statSync(file).mode & 0o777, 0o600);
});

test('list shows id, plan, label, created, expires and revoked, never the key or its hash', async ({ env, file }) => {
  const key = (await keys(env, 'create', '--plan', 'enterprise', '--label', 'ci')).stdout.trim();
  const { code, stdout } = await keys(env, 'list');
  assert.is(code, 0);
  const [header, row] = stdout.trim().split('\n');
  assert.is(header, 'id\tplan\tlabel\tcreated\texpires\trevoked');
  const cells = (row as string).split('\t');
  assert.equal([cells[0], cells[1], cells[2], cells[4], cells[5]], [key.slice(3, 11), 'enterprise', 'ci', '-', '-']);
  assert.not.ok(stdout.includes(key) || stdout.includes(hashKey(key)));
  assert.ok(readFileSync(file, 'utf8').includes(hashKey(key)));
});

test('revoke marks the key revoked and keeps its record', async ({ env }) => {
  const key = (await keys(env, 'create', '--plan', 'pro')).stdout.trim();
  const id = key.slice(3, 11);
  const revoked = await keys(env, 'revoke', id);
  assert.is(revoked.code, 0, revoked.stderr);
  const row = (await keys(env, 'list')).stdout.trim().split('\n')[1] as string;
  assert.match(row.split('\t')[5] as string, /^\d{4}-\d{2}-\d{2}T/);
});

const refusals: Array<[string, string[], RegExp]> = [
  ['a plan that is not configured', ['create', '--plan', 'gold'], /plan "gold" is not configured/],
  ['an unknown id', ['revoke', 'AAAAAAAA'], /no key with id "AAAAAAAA"/],
  ['a malformed date', ['create', '--plan', 'pro', '--expires', '2026-13-01'], /is not a date YYYY-MM-DD/],
  ['a date that does not exist', ['create', '--plan', 'pro', '--expires', '2027-02-30'], /is not a date YYYY-MM-DD/],
  ['a date in the past', ['create', '--plan', 'pro', '--expires', '2001-01-01'], /is not in the future/],
  ['create without a plan', ['create'], /needs --plan/],
  ['an unknown verb', ['rotate'], /usage: keys create/],
  ['a label with an escape character', ['create', '--plan', 'pro', '--label', 'ci\u001b[2Jrunner'], /^nettools: --label holds U\+001B, a control character\n$/],
  ['a label with a C1 control character', ['create', '--plan', 'pro', '--label', 'ci\u009brunner'], /^nettools: --label holds U\+009B, a control character\n$/],
  ['a label with a bidi override', ['create', '--plan', 'pro', '--label', '\u202eevil'], /^nettools: --label holds U\+202E, a bidirectional formatting character\n$/],
  ['a label with a bidi isolate', ['create', '--plan', 'pro', '--label', 'ci\u2067x\u2069'], /^nettools: --label holds U\+2067, a bidirectional formatting character\n$/],
  ['a label with a right-to-left mark', ['create', '--plan', 'pro', '--label', 'ci\u200f'], /^nettools: --label holds U\+200F, a bidirectional formatting character\n$/],
  ['a label with an Arabic letter mark', ['create', '--plan', 'pro', '--label', 'ci\u061c'], /^nettools: --label holds U\+061C, a bidirectional formatting character\n$/],
  ['a label longer than 200 characters', ['create', '--plan', 'pro', '--label', 'x'.repeat(201)], /^nettools: --label must be text of at most 200 characters\n$/],
];
for (const [what, args, message] of refusals) {
  test(`${what}: one line on stderr, exit 2, file unchanged`, async ({ env, file }) => {
    await keys(env, 'create', '--plan', 'pro');
    const before = readFileSync(file);
    const { code, stderr, stdout } = await keys(env, ...args);
    assert.is(code, 2);
    assert.is(stdout, '');
    assert.match(stderr, message);
    assert.is(stderr.trim().split('\n').length, 1);
    assert.equal(readFileSync(file), before);
  });
}

test("keys --help prints the keys command's own usage, not the server's settings, and exits 0", async ({ env, file }) => {
  for (const args of [['--help'], ['create', '-h']]) {
    const { code, stdout, stderr } = await keys(env, ...args);
    assert.is(code, 0, stderr);
    assert.match(stdout, 'usage: keys create --plan NAME');
    assert.match(stdout, 'keys revoke ID');
    assert.not.match(stdout, 'NETTOOLS_RATE_LIMIT');
  }
  assert.throws(() => readFileSync(file));
});

test('without a keys file setting the CLI refuses', async () => {
  const { code, stderr } = await keys({ NETTOOLS_PLANS: 'pro=1/1s' }, 'list');
  assert.is(code, 2);
  assert.match(stderr, 'NETTOOLS_API_KEYS_FILE');
});

test('eight CLIs creating keys at once lose none', async ({ env, file }) => {
  const made = await Promise.all(Array.from({ length: 8 }, () => keys(env, 'create', '--plan', 'pro')));
  assert.ok(made.every((m) => m.code === 0), JSON.stringify(made.map((m) => m.stderr)));
  const text = readFileSync(file, 'utf8');
  const records = text.trim().split('\n').map((l) => JSON.parse(l));
  assert.is(records.length, 8);
  for (const m of made) assert.ok(records.some((r) => r.sha256 === hashKey(m.stdout.trim())));
});

test.run();

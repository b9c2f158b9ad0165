import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashKey } from '../../src/keys/api-key';
import { runToExit } from '../support/child-server';

const test = suite<{ dir: string; agents: string; env: Record<string, string> }>('keys CLI for agent keys');

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-agent-cli-'));
  ctx.agents = join(ctx.dir, 'agents');
  ctx.env = { NETTOOLS_API_KEYS_FILE: join(ctx.dir, 'keys'), NETTOOLS_AGENT_KEYS_FILE: ctx.agents, NETTOOLS_PLANS: 'pro=600/60s:16' };
});

test.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

const keys = (env: Record<string, string>, ...args: string[]) => runToExit(env, ['keys', ...args]);

test('create --agent prints the key alone, and the agent keys file holds its hash and location with mode 0600', async ({ env, agents }) => {
  const { code, stdout, stderr } = await keys(env, 'create', '--agent', 'de-fra');
  assert.is(code, 0, stderr);
  assert.match(stdout, /^nt_[A-Za-z0-9_-]{43}\n$/);
  const key = stdout.trim();
  const text = readFileSync(agents, 'utf8');
  assert.not.ok(text.includes(key));
  const record = JSON.parse(text);
  assert.equal([record.id, record.sha256, record.location, record.revoked], [key.slice(3, 11), hashKey(key), 'de-fra', null]);
  assert.is(statSync(agents).mode & 0o777, 0o600);
});

test('create --agent needs only the agent keys file', async ({ dir }) => {
  const { code, stderr } = await keys({ NETTOOLS_AGENT_KEYS_FILE: join(dir, 'only-agents') }, 'create', '--agent', 'edge-1');
  assert.is(code, 0, stderr);
});

test('list shows API keys and agent keys, each in its own table, never a key', async ({ env }) => {
  const api = (await keys(env, 'create', '--plan', 'pro')).stdout.trim();
  const agent = (await keys(env, 'create', '--agent', 'us-east')).stdout.trim();
  const { code, stdout } = await keys(env, 'list');
  assert.is(code, 0);
  const [apiTable, agentTable] = stdout.split('\n\n');
  assert.match(apiTable as string, api.slice(3, 11));
  const [header, row] = (agentTable as string).trim().split('\n');
  assert.is(header, 'agent id\tlocation\tcreated\trevoked');
  const cells = (row as string).split('\t');
  assert.equal([cells[0], cells[1], cells[3]], [agent.slice(3, 11), 'us-east', '-']);
  assert.not.ok(stdout.includes(api) || stdout.includes(agent));
});

test('revoke ID revokes an agent key and keeps its record', async ({ env, agents }) => {
  const key = (await keys(env, 'create', '--agent', 'us-east')).stdout.trim();
  const revoked = await keys(env, 'revoke', key.slice(3, 11));
  assert.is(revoked.code, 0, revoked.stderr);
  assert.match(JSON.parse(readFileSync(agents, 'utf8')).revoked, /^\d{4}-\d{2}-\d{2}T/);
});

const refusals: Array<[string, string[], Record<string, string>, RegExp]> = [
  ['a location with capitals', ['create', '--agent', 'DE-Fra'], {}, /a location name is 1-32 of a-z, 0-9 and "-"/],
  ['a location of 33 characters', ['create', '--agent', 'a'.repeat(33)], {}, /a location name is 1-32/],
  ['--agent with --plan', ['create', '--agent', 'x', '--plan', 'pro'], {}, /--agent takes no --plan/],
  ['no agent keys file', ['create', '--agent', 'x'], { NETTOOLS_AGENT_KEYS_FILE: '' }, /NETTOOLS_AGENT_KEYS_FILE/],
];
for (const [what, args, extra, message] of refusals) {
  test(`${what}: one line on stderr, exit 2, nothing written`, async ({ env, agents }) => {
    const { code, stderr, stdout } = await keys({ ...env, ...extra }, ...args);
    assert.is(code, 2);
    assert.is(stdout, '');
    assert.match(stderr, message);
    assert.is(stderr.trim().split('\n').length, 1);
    assert.throws(() => readFileSync(agents));
  });
}

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../architecture/source-files';

// deploy/compose/nginx.conf is deploy/nginx/nettools.conf for the compose example: only its header
// comment and its upstream block differ, so a fix to the front door reaches both or this fails.
const shipped = readFileSync(join(ROOT, 'deploy', 'nginx', 'nettools.conf'), 'utf8');
const compose = readFileSync(join(ROOT, 'deploy', 'compose', 'nginx.conf'), 'utf8');
const FIRST_SHARED_LINE = "# The caller's X-Request-Id";
const UPSTREAM = /(#[^\n]*\n)*upstream nettools \{[^}]*\}/;

function withoutHeaderAndUpstream(text: string): string {
  assert.ok(text.includes(FIRST_SHARED_LINE) && UPSTREAM.test(text));
  return text.slice(text.indexOf(FIRST_SHARED_LINE)).replace(UPSTREAM, 'upstream');
}

test('the compose nginx config is the shipped one but for its header and upstream block', () => {
  assert.fixture(withoutHeaderAndUpstream(compose), withoutHeaderAndUpstream(shipped));
});

test("the compose nginx config's upstream is both instances, by service name", () => {
  const servers = [...(compose.match(UPSTREAM)?.[0] ?? '').matchAll(/^\s*server (\S+);/gm)].map((m) => m[1]);
  assert.equal(servers, ['nettools-1:8080', 'nettools-2:8080']);
});

test.run();

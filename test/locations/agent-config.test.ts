import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runToExit } from '../support/child-server';

const KEY = 'nt_' + 'A'.repeat(43);
const GOOD = { NETTOOLS_HUB_URL: 'ws://127.0.0.1:9/api/agents/connect', NETTOOLS_AGENT_KEY: KEY, NETTOOLS_LOCATION: 'de-fra' };

const refusals: Array<[string, Record<string, string>, RegExp]> = [
  ['no hub URL', { NETTOOLS_HUB_URL: '' }, /^nettools: NETTOOLS_HUB_URL: an agent needs its hub/],
  ['a hub URL that is not a URL', { NETTOOLS_HUB_URL: 'hub.example' }, /^nettools: NETTOOLS_HUB_URL: expected wss:\/\//],
  ['an http:// hub URL', { NETTOOLS_HUB_URL: 'http://127.0.0.1:9/api/agents/connect' }, /^nettools: NETTOOLS_HUB_URL: expected wss:\/\//],
  ['ws:// to an address that is not loopback', { NETTOOLS_HUB_URL: 'ws://192.0.2.1/api/agents/connect' }, /ws:\/\/ only to a loopback address/],
  ['ws:// to a host name', { NETTOOLS_HUB_URL: 'ws://hub.example/api/agents/connect' }, /ws:\/\/ only to a loopback address/],
  ['no key', { NETTOOLS_AGENT_KEY: '' }, /^nettools: NETTOOLS_AGENT_KEY: an agent needs its key/],
  ['a key that is not a nettools key', { NETTOOLS_AGENT_KEY: 'hunter2' }, /^nettools: NETTOOLS_AGENT_KEY: not a nettools key/],
  ['no location', { NETTOOLS_LOCATION: '' }, /^nettools: NETTOOLS_LOCATION: an agent needs the location name/],
  ['a location with capitals', { NETTOOLS_LOCATION: 'DE' }, /^nettools: NETTOOLS_LOCATION: a location name is 1-32/],
  ['labels without values', { NETTOOLS_LOCATION_LABELS: 'country' }, /^nettools: NETTOOLS_LOCATION_LABELS: label country needs a value/],
];

for (const [what, env, message] of refusals) {
  test(`agent with ${what}: one line on stderr, exit 2`, async () => {
    const { code, stderr, stdout } = await runToExit({ ...GOOD, ...env }, ['agent']);
    assert.is(code, 2);
    assert.is(stdout, '');
    assert.match(stderr, message);
    assert.is(stderr.trim().split('\n').length, 1);
  });
}

test('a refused key is never repeated on stderr', async () => {
  const { code, stderr } = await runToExit({ ...GOOD, NETTOOLS_AGENT_KEY: 'secret-but-malformed' }, ['agent']);
  assert.is(code, 2);
  assert.not.match(stderr, 'secret-but-malformed');
});

test('a hub on worker threads with an agent keys file it cannot read refuses to start, naming the setting', async () => {
  const { code, stderr } = await runToExit({ NETTOOLS_AGENT_KEYS_FILE: '/nonexistent/agents', NETTOOLS_WORKERS: '2' });
  assert.is(code, 2);
  assert.match(stderr, /^nettools: NETTOOLS_AGENT_KEYS_FILE: /);
  assert.is(stderr.trim().split('\n').length, 1);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseHubUrl, parseLocationLabels } from '../../src/config/location';

test('labels are k=v pairs, values trimmed, in the order given', () => {
  const parsed = parseLocationLabels('country=DE,city=Frankfurt am Main,asn=64500');
  assert.equal(parsed.ok && parsed.value, { country: 'DE', city: 'Frankfurt am Main', asn: '64500' });
  assert.equal(parseLocationLabels(''), { ok: true, value: {} });
});

const badLabels: Array<[string, string]> = [
  ['a name with capitals', 'Country=DE'],
  ['a name given twice', 'city=A,city=B'],
  ['a value with a control character', 'city=a\u001bb'],
  ['an empty value', 'city='],
  ['a value of 65 characters', `city=${'x'.repeat(65)}`],
  ['17 labels', Array.from({ length: 17 }, (_, i) => `k${i}=v`).join(',')],
];
for (const [what, text] of badLabels) {
  test(`labels refused: ${what}`, () => assert.is(parseLocationLabels(text).ok, false));
}

const hubUrls: Array<[string, boolean]> = [
  ['wss://hub.example/api/agents/connect', true],
  ['ws://127.0.0.1:8080/api/agents/connect', true],
  ['ws://127.9.9.9/api/agents/connect', true],
  ['ws://[::1]:8080/api/agents/connect', true],
  ['ws://10.0.0.1/api/agents/connect', false],
  ['ws://localhost/api/agents/connect', false],
  ['wss://user:pass@hub.example/api/agents/connect', false],
  ['https://hub.example/api/agents/connect', false],
];
for (const [url, accepted] of hubUrls) {
  test(`hub URL ${url} is ${accepted ? 'accepted' : 'refused'}`, () => assert.is(parseHubUrl(url).ok, accepted));
}

test.run();

// The CN a certificate's facts report, read from Node's text of its distinguished name.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commonName } from '../../../src/tools/tls/certificates';

const test = suite('certificate facts: the common name');

test('the CN is found among the RDNs, one a line', () => {
  assert.is(commonName('C=US\nO=Example\nCN=example.test'), 'example.test');
});

test('a name without a CN has none', () => {
  assert.is(commonName('C=US\nO=Example'), null);
});

test("RFC 2253's escapes are undone: a character after a backslash, and two hex digits as one byte", () => {
  assert.is(commonName('CN=\\<img src=x onerror=\\"a=1\\"\\>'), '<img src=x onerror="a=1">');
  assert.is(commonName('CN=a\\, b\\0Ac\\C3\\A9'), 'a, b\nc\u00e9');
});

test('in a multi-valued RDN the CN is its own attribute, and an escaped + stays in the value', () => {
  assert.is(commonName('CN=a + O=b\nOU=x'), 'a');
  assert.is(commonName('O=b + CN=a'), 'a');
  assert.is(commonName('CN=a\\+b'), 'a+b');
});

test.run();

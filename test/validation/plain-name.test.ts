import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { convertedName, toAsciiName, type NameKind } from '../../src/validation/names';
import { plainAsciiName } from '../../src/validation/plain-name';

const KINDS: NameKind[] = ['hostname', 'domain'];

// Where the one-pass check answers, it answers what the full conversion answers.
function agrees(input: string): void {
  for (const kind of KINDS) {
    const plain = plainAsciiName(input, kind === 'domain');
    if (plain !== undefined) assert.is(plain, convertedName(input, kind), `${kind} ${JSON.stringify(input)}`);
  }
}

test('plain names are answered in one pass, as the full conversion answers them', () => {
  for (const name of ['example.com', 'example.com.', 'a.b.c', '_dmarc.example.com', 'a-b.example', 'r1-2.fresh.bench.test', '1a.example', 'x.y1']) {
    for (const kind of KINDS) {
      const plain = plainAsciiName(name, kind === 'domain');
      if (kind === 'hostname' && name.includes('_')) continue;
      assert.is.not(plain, undefined, `${kind} ${name} should take the one pass`);
      assert.is(plain, convertedName(name, kind), `${kind} ${name}`);
    }
  }
});

test('invalid plain names are refused in one pass, as the full conversion refuses them', () => {
  const long = 'a'.repeat(64);
  for (const name of ['', '.', '..', '.a', 'a..b', 'a.', 'a.-b', 'a.b-', '-a.b', `${long}.com`, '1.2.3', 'a.123', 'a.b.', 'a'.repeat(255)]) {
    agrees(name);
  }
  assert.is(plainAsciiName('a.123', true), null);
  assert.is(plainAsciiName(`${long}.com`, true), null);
  assert.is(plainAsciiName('-a.b', false), null);
});

test('capitals, Unicode, other characters and punycode labels are left to the full conversion', () => {
  for (const name of ['Example.com', 'bücher.de', 'xn--bcher-kva.de', 'a.xn--p1ai', 'a b.c', 'a:1', '0x7f000001', 'a.0x1', 'a.0xg', 'ａ.b', 'a。b', 'a_b.c']) {
    assert.is(plainAsciiName(name, false), undefined, name);
  }
  assert.is(toAsciiName('Example.COM', 'domain'), 'example.com');
  assert.is(toAsciiName('bücher.de', 'domain'), 'xn--bcher-kva.de');
});

test('random strings of name characters get the full conversion\'s answer wherever the one pass answers', () => {
  // A fixed seed: the same 20,000 strings every run.
  let seed = 0x2545f491;
  const next = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const alphabet = 'abcfxyz0189-_.';
  let answered = 0;
  for (let i = 0; i < 20000; i++) {
    const length = 1 + next(i % 10 === 0 ? 260 : 24);
    let s = '';
    for (let j = 0; j < length; j++) s += alphabet[next(alphabet.length)];
    if (next(20) === 0) s = `xn--${s}`;
    if (next(20) === 0) s = `${s}.0x${s.slice(0, 3)}`;
    agrees(s);
    if (plainAsciiName(s, true) !== undefined) answered++;
  }
  assert.ok(answered > 15000, `the one pass answered only ${answered} of 20000`);
});

test.run();

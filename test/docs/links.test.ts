import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../architecture/source-files';

// Every relative link of the README and the pages it leads to reaches a file that exists, and an
// #anchor a heading of that file (as GitHub makes anchors of headings).
const PAGES = ['README.md', 'docs/deploying.md', 'docs/scaling.md', 'docs/rate-limits.md', 'docs/operations.md', 'docs/probes.md', 'docs/api-keys.md', 'docs/locations.md', 'docs/clients.md', 'docs/platforms.md', 'docs/testing.md', 'docs/dns.md', 'docs/configuration.md', 'docs/layout.md', 'bench/README.md', 'native/README.md', 'clients/typescript/README.md'];

export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (m) anchors.add(anchorOf(m[1] as string));
  }
  return anchors;
}

function linksOf(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((l) => !/^[a-z]+:/.test(l));
}

test('anchors are made of headings as GitHub makes them', () => {
  assert.is(anchorOf('The front door: nginx'), 'the-front-door-nginx');
  assert.is(anchorOf('Prometheus probes (`/probe`)'), 'prometheus-probes-probe');
  assert.is(anchorOf('Node 24 beside Node 20'), 'node-24-beside-node-20');
});

for (const page of PAGES) {
  test(`every relative link in ${page} resolves`, () => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? join(ROOT, page) : normalize(join(ROOT, dirname(page), file));
      if (!existsSync(target)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link}: no such heading`);
    }
    assert.equal(broken, []);
  });
}

test('the README stays short: about 250 lines, the rest on its pages', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
  assert.ok(lines <= 300, `README.md has ${lines} lines`);
});

test.run();

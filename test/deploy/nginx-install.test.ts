import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../architecture/source-files';

// The README's nginx steps: deploy/nginx/nettools.conf copied into conf.d/ under Debian's own
// /etc/nginx/nginx.conf (its default site included), certificate and key where the config names them.
// Only the paths are moved into a temp dir: conf.d, the certificate pair, the pid and error log.
test("Debian's nginx.conf takes deploy/nginx/nettools.conf from conf.d (nginx -t)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'nt-nginx-install-'));
  try {
    mkdirSync(join(dir, 'conf.d'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'privkey.pem'), '-out', join(dir, 'fullchain.pem'), '-days', '2', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    const site = readFileSync(join(ROOT, 'deploy', 'nginx', 'nettools.conf'), 'utf8').replaceAll('/etc/nettools/tls/', `${dir}/`);
    writeFileSync(join(dir, 'conf.d', 'nettools.conf'), site);
    const debian = readFileSync('/etc/nginx/nginx.conf', 'utf8');
    assert.match(debian, /^\s*include \/etc\/nginx\/conf\.d\/\*\.conf;$/m);
    const main = debian
      .replace('/etc/nginx/conf.d/', `${dir}/conf.d/`)
      .replace(/^pid .*$/m, `pid ${dir}/nginx.pid;`)
      .replace(/^error_log .*$/m, `error_log ${dir}/error.log;`);
    writeFileSync(join(dir, 'nginx.conf'), main);
    const checked = spawnSync('nginx', ['-t', '-c', join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
    assert.is(checked.status, 0, checked.stderr);
    assert.match(checked.stderr, 'test is successful');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

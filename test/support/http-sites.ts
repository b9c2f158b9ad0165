import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNginx } from './nginx-process';
import { freeTcpPort } from './ports';

// A private nginx serving plain HTTP on two loopback addresses for the http check's tests: `main` on
// 127.0.0.1 (answers, redirects of every kind, a 10 MB body, a cookie) and `other` on 127.0.0.2, another
// host, where a redirect lands. `otherName` is the name the test's zone gives 127.0.0.2. On `main`,
// `/moved` sends back to `/` and `/markup` answers with a header holding markup (the live page's tests).
export interface HttpSites {
  main: number; // port on 127.0.0.1
  other: number; // port on 127.0.0.2
  bigBytes: number;
  stop(): Promise<void>;
}

export const BIG_BYTES = 10 * 1024 * 1024;

function siteConfig(dir: string, main: number, other: number, otherName: string): string {
  return `  server {
    listen 127.0.0.1:${main};
    location = / { return 200 "hello\\n"; }
    location = /to-other { return 302 http://${otherName}:${other}/landing; }
    location = /to-metadata { return 302 http://169.254.169.254/latest/meta-data/; }
    location = /to-private { return 301 http://10.20.30.40:${main}/; }
    location = /to-port-25 { return 302 http://127.0.0.1:25/; }
    location = /loop { return 302 /loop; }
    location = /big { alias ${dir}/big.bin; }
    location = /moved { return 301 /; }
    location = /markup { add_header X-Note '<img src=x onerror="document.body.dataset.pwned=1">'; return 200 "m\\n"; }
    location = /cookie { add_header Set-Cookie "session=0123456789; Path=/"; return 200 "c\\n"; }
  }
  server {
    listen 127.0.0.2:${other};
    location = /landing { return 200 "landed\\n"; }
  }`;
}

export async function startHttpSites(otherName: string): Promise<HttpSites> {
  const dir = mkdtempSync(join(tmpdir(), 'nt-http-sites-'));
  writeFileSync(join(dir, 'big.bin'), Buffer.alloc(BIG_BYTES, 0x61));
  const main = await freeTcpPort('127.0.0.1');
  const other = await freeTcpPort('127.0.0.2');
  const nginx = await runNginx(dir, siteConfig(dir, main, other, otherName), [['127.0.0.1', main], ['127.0.0.2', other]], 'nginx serving the HTTP test sites');
  return {
    main,
    other,
    bigBytes: BIG_BYTES,
    stop: () => nginx.stop(),
  };
}

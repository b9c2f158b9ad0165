// The timing half of the http bench: nettools' http check (the server, over its API, one check at a time)
// beside curl to the same nginx URL, in alternating blocks, each side's phases read into the same units
// (bench/lib/http-stats.ts says how curl's cumulative times become phases).
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { CURL_FORMAT, nettoolsPhases, parseCurlOutput, type PhaseTimes } from '../lib/http-stats';
import type { LoadServer } from '../lib/check-load';
import { openRawPoster } from '../lib/raw-post';

// Both sides start one transfer every `paceMs` (0: each right after the one before). Paced, both wait
// idle between transfers the same way: on this VM a process (and nginx) woken from idle answers tens of
// µs slower than one kept busy, and nettools' checks, each an API round trip, can never run back to back
// as one curl process does, so unpaced the two are not timed under the same conditions.
export interface Pace {
  paceMs: number;
}

// One curl process for `n` transfers, each on a new connection (nginx closes it: `Connection: close`, as
// nettools sends) with a full handshake (`--no-sessionid`), the address an IP literal, the test CA trusted;
// paced with `--rate`.
export function curlTimes(url: string, caFile: string, n: number, pace: Pace = { paceMs: 0 }): Promise<PhaseTimes[]> {
  const args = ['-s', '--http1.1', '--no-sessionid', '--noproxy', '*', '-H', 'Connection: close', '-H', 'Accept-Encoding: identity', '--cacert', caFile, '-w', CURL_FORMAT];
  if (pace.paceMs > 0) args.push('--rate', `${Math.round(60_000 / pace.paceMs)}/m`);
  for (let i = 0; i < n; i++) args.push('-o', '/dev/null', url);
  return new Promise((resolve, reject) => {
    execFile('curl', args, { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, timeout: 60_000, maxBuffer: 1 << 24 }, (err, stdout) => {
      if (err) return reject(new Error(`curl failed: ${err.message}`));
      const read = parseCurlOutput(stdout, url.startsWith('https:'), n);
      if (!read.ok) return reject(new Error(read.error));
      resolve(read.samples);
    });
  });
}

// nettools' checks one at a time on one kept connection (bench/lib/raw-post.ts: the bench's own CPU
// kept out of the way of the server and nginx), paced as curl is.
export async function nettoolsTimes(server: LoadServer, url: string, n: number, pace: Pace = { paceMs: 0 }): Promise<PhaseTimes[]> {
  const { hostname, port } = new URL(server.url);
  const poster = await openRawPoster(hostname, Number(port));
  const request = JSON.stringify({ url, timeoutMs: 5000 });
  const out: PhaseTimes[] = [];
  try {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const wait = t0 + i * pace.paceMs - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const reply = await poster.post('/api/tools/http', request);
      const body = JSON.parse(reply.body) as { status?: number; timings?: Record<string, number> };
      if (reply.status !== 200 || body.status !== 200) throw new Error(`nettools' check of ${url}: ${reply.status} ${reply.body}`);
      const phases = nettoolsPhases(body.timings ?? {});
      if (typeof phases === 'string') throw new Error(phases);
      out.push(phases);
    }
  } finally {
    poster.close();
  }
  return out;
}

// `rounds` rounds of `perRound` checks each side, the two taking turns at going first; a warm-up of each
// first (the server's code compiled, curl's and nginx's first connections), not counted.
export async function measureOverhead(server: LoadServer, url: string, caFile: string, rounds: number, perRound: number, pace: Pace): Promise<{ nettools: PhaseTimes[]; curl: PhaseTimes[] }> {
  await nettoolsTimes(server, url, 50);
  await curlTimes(url, caFile, 10);
  const nettools: PhaseTimes[] = [];
  const curl: PhaseTimes[] = [];
  for (let r = 0; r < rounds; r++) {
    const runNettools = async () => nettools.push(...(await nettoolsTimes(server, url, perRound, pace)));
    const runCurl = async () => curl.push(...(await curlTimes(url, caFile, perRound, pace)));
    if (r % 2 === 0) {
      await runNettools();
      await runCurl();
    } else {
      await runCurl();
      await runNettools();
    }
  }
  return { nettools, curl };
}

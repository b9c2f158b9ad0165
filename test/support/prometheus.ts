// A real Prometheus (Debian's `prometheus`) on a loopback port, with its own config and data directory, for
// tests that check that /probe works for the scraper it is written for. Asked through its own HTTP API.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeTcpPort } from './ports';
import { waitFor } from './wait';

export interface PrometheusSample {
  labels: Record<string, string>;
  value: number;
}

export interface Prometheus {
  base: string;
  // The samples of an instant query (PromQL); [] while the series is not there yet.
  query(promql: string): Promise<PrometheusSample[]>;
  // Waits until `promql` has at least one sample (a scrape has brought it), then returns them.
  waitForSeries(promql: string): Promise<PrometheusSample[]>;
  stop(): Promise<void>;
}

// `config`: the scrape_configs section, YAML, as an operator would write it. Scrapes every second so a
// test waits for one scrape, not for a default 1-minute interval.
export async function startPrometheus(scrapeConfigs: string): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'nt-prometheus-'));
  writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\nscrape_configs:\n${scrapeConfigs}`);
  const port = await freeTcpPort('127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const ready = async () => {
    if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${stderr}`);
    try {
      return (await fetch(`${base}/-/ready`)).status === 200;
    } catch {
      return false;
    }
  };
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('prometheus ready', ready, { timeoutMs: 30_000, everyMs: 100 });
  } catch (err) {
    await stop();
    throw err;
  }
  const query = async (promql: string) => instantQuery(base, promql);
  return {
    base,
    query,
    async waitForSeries(promql) {
      let found: PrometheusSample[] = [];
      await waitFor(`prometheus to have ${promql} (${stderr})`, async () => (found = await query(promql)).length > 0, { timeoutMs: 20_000, everyMs: 250 });
      return found;
    },
    stop,
  };
}

async function instantQuery(base: string, promql: string): Promise<PrometheusSample[]> {
  const reply = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await reply.json()) as { status: string; error?: string; data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] } };
  if (body.status !== 'success' || body.data?.resultType !== 'vector') throw new Error(`query ${promql} failed: ${body.error ?? JSON.stringify(body)}`);
  return body.data.result.map((r) => ({ labels: r.metric, value: Number(r.value[1]) }));
}

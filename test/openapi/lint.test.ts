import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from '../support/http';
import { startServer, type RunningServer } from '../support/server';

// The pinned Redocly CLI, with the repository's redocly.yaml, on the document a running server serves.
const ROOT = resolve(__dirname, '../../..');
const REDOCLY = join(ROOT, 'node_modules/.bin/redocly');
// No telemetry, no update check: the linter must not reach the network.
const QUIET = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true', NO_COLOR: '1' };

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
}

function lint(doc: object, dir: string): Promise<LintReport> {
  const file = join(dir, `openapi-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const args = ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'];
  return new Promise((done, fail) =>
    execFile(REDOCLY, args, { cwd: dir, env: { ...process.env, ...QUIET }, timeout: 60_000 }, (err, stdout) => {
      try {
        done(JSON.parse(stdout) as LintReport);
      } catch {
        fail(err ?? new Error(`redocly printed no report: ${stdout}`));
      }
    }),
  );
}

const summary = (report: LintReport) => report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`).join('\n');

const test = suite<{ server: RunningServer; dir: string; doc: any }>('redocly lint of /openapi.json');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'nettools-lint-'));
  ctx.server = await startServer();
  ctx.doc = (await request(ctx.server.base, '/openapi.json')).json();
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

test('the served document has no error and no warning under the recommended rules', async ({ doc, dir }) => {
  const report = await lint(doc, dir);
  assert.equal(report.totals, { ...report.totals, errors: 0, warnings: 0 }, summary(report));
});

test('the linter warns about a document without a license', async ({ doc, dir }) => {
  const { license: _gone, ...info } = doc.info;
  const report = await lint({ ...doc, info }, dir);
  assert.equal(report.problems.map((p) => p.ruleId), ['info-license']);
});

test('the linter refuses an operation without an operationId', async ({ doc, dir }) => {
  const { operationId: _gone, ...health } = doc.paths['/health'].get;
  const report = await lint({ ...doc, paths: { ...doc.paths, '/health': { get: health } } }, dir);
  assert.is(report.totals.errors, 1, summary(report));
  assert.equal(report.problems.map((p) => p.ruleId), ['operation-operationId']);
});

test.run();

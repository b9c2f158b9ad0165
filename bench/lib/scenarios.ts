import { BENCH_ZONE, FRESH_SUFFIX } from './knot';
import type { ScenarioName, ServerName } from './types';

export interface Scenario {
  name: ScenarioName;
  description: string;
  path: string;
  body: string;
  expectedStatus: number;
  expectedCode: string | null; // a problem's `code`, when an error is what is measured
  servers: ServerName[];
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'validation',
    description: 'POST /api/tools/ping with count 0: 400 validation-failed (the HTTP path alone)',
    path: '/api/tools/ping',
    body: JSON.stringify({ host: '127.0.0.1', count: 0 }),
    expectedStatus: 400,
    expectedCode: 'validation-failed',
    servers: ['nettools', 'nettools-nometrics', 'nettools-keyed', 'nettools-workers2', 'nettools-redis', 'baseline', 'ceiling', 'ceiling-identical'],
  },
  {
    name: 'dns',
    description: `POST /api/tools/dns for a fresh name under *.${FRESH_SUFFIX} on every request: A, AAAA, MX, TXT from every loopback Knot resolver`,
    path: '/api/tools/dns',
    body: JSON.stringify({ domain: `{fresh}.${FRESH_SUFFIX}` }),
    expectedStatus: 200,
    expectedCode: null,
    servers: ['nettools', 'nettools-workers2', 'nettools-redis', 'baseline'],
  },
  {
    name: 'dns-hot',
    description: `POST /api/tools/dns for ${BENCH_ZONE} on every request (one hot name): A, AAAA, MX, TXT from every loopback Knot resolver`,
    path: '/api/tools/dns',
    body: JSON.stringify({ domain: BENCH_ZONE }),
    expectedStatus: 200,
    expectedCode: null,
    servers: ['nettools', 'baseline'],
  },
  {
    name: 'ping',
    description: 'POST /api/tools/ping count 1 to 127.0.0.1',
    path: '/api/tools/ping',
    body: JSON.stringify({ host: '127.0.0.1', count: 1 }),
    expectedStatus: 200,
    expectedCode: null,
    servers: ['nettools', 'baseline'],
  },
];

// Comparisons of plain nettools with another server, each measured in alternating short runs after the
// scenarios: a nettools variant for a cost target (metrics, the API-key path, budgets in Redis in both
// scenarios the issue names), the baseline and the byte-identical ceiling for the validation target, and
// the baseline for the dns CPU target.
export interface Pair {
  scenario: ScenarioName;
  first: 'nettools';
  second: ServerName;
}

export const PAIRS: Pair[] = [
  { scenario: 'validation', first: 'nettools', second: 'nettools-nometrics' },
  { scenario: 'validation', first: 'nettools', second: 'nettools-keyed' },
  { scenario: 'validation', first: 'nettools', second: 'nettools-redis' },
  { scenario: 'dns', first: 'nettools', second: 'nettools-redis' },
  { scenario: 'validation', first: 'nettools', second: 'baseline' },
  { scenario: 'validation', first: 'nettools', second: 'ceiling-identical' },
  { scenario: 'dns', first: 'nettools', second: 'baseline' },
];

import { parseHttpUrl, type HttpUrl } from '../../validation/http-url';
import { REACHED_VERDICT_SCHEMA, reachedVerdict } from '../located-verdict';
import { TARGET_FAILURES } from '../target-path';
import type { Tool } from '../tool';
import { httpProbe } from './probe';
import { openHttp } from './run';
import { httpRequestSchema, httpResultSchema } from './schema';
import { httpStreamEvents } from './stream-schema';
import type { HttpRequest, HttpResult } from './types';

export type { HttpRequest, HttpResult } from './types';

export const httpTool: Tool<HttpRequest, HttpResult> = {
  name: 'http',
  path: '/api/tools/http',
  summary: 'HTTP check of one URL: the answer\'s status, headers and body hash, the time of each phase, the TLS facts for https, and the redirects followed',
  requestSchema: () => httpRequestSchema,
  resultSchema: httpResultSchema,
  components: [],
  failures: TARGET_FAILURES,
  streamEvents: httpStreamEvents,
  normalize: (request) => normalizeHttp(request),
  open: (deps) => openHttp(deps),
  verdict: reachedVerdict<HttpResult>((r) => r.status !== undefined),
  verdictSchema: REACHED_VERDICT_SCHEMA,
  probe: httpProbe,
};

// The URL in its WHATWG form, and its host as the target every tool on the target path carries. The
// schema's `http-url` format has accepted it, so it parses.
function normalizeHttp(request: HttpRequest): HttpRequest {
  const url = parseHttpUrl(request.url) as HttpUrl;
  const { target: _none, ...asked } = request;
  return { target: url.target, ...asked, url: url.href, host: url.target.value };
}

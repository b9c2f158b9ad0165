import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import Fastify, { type FastifyError, type FastifyReply } from 'fastify';
import { parseResolvers } from '../../src/config/resolvers';
import { problemJson } from '../../src/http/problem-json';
import { PROBLEMS, type FieldError, type ProblemCode } from '../../src/problems/codes';
import { DEFAULT_TYPES, dnsRequestSchema } from '../../src/tools/dns/schema';
import type { DnsRequest } from '../../src/tools/dns/types';
import { pingRequestSchema } from '../../src/tools/ping/schema';
import type { PingRequest } from '../../src/tools/ping/types';
import { parseDomain, parseHost } from '../../src/validation/names';
import { createDnsHandler } from './baseline-dns';
import { createPingHandler } from './baseline-ping';

// The comparison peer: the same two endpoints and response shapes, written the way most people would
// (Fastify, Node's dns.promises.Resolver, iputils ping through child_process). Validation reuses our
// JSON Schemas and format checks through Fastify's own schema support (setValidatorCompiler), so both
// servers refuse exactly the same bodies. No rate limit: the bench runs nettools with a limit so high
// that it never triggers.
//
// Environment: PORT, HOST, NETTOOLS_RESOLVERS (loopback test servers only; there is no default).

function fail(message: string): never {
  process.stderr.write(`baseline: ${message}\n`);
  process.exit(2);
}

const resolversText = process.env['NETTOOLS_RESOLVERS'];
if (!resolversText) fail('NETTOOLS_RESOLVERS is required (loopback test resolvers)');
const resolvers = parseResolvers(resolversText);
if (typeof resolvers === 'string') fail(`NETTOOLS_RESOLVERS: ${resolvers}`);
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? '0');

const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true, coerceTypes: false });
ajv.addFormat('host', { type: 'string', validate: (s: string) => parseHost(s) !== null });
ajv.addFormat('domain', { type: 'string', validate: (s: string) => parseDomain(s) !== null });

const app = Fastify({ logger: false, bodyLimit: 4096 });
app.setValidatorCompiler(({ schema }) => ajv.compile(schema));

const sendProblem = (reply: FastifyReply, code: ProblemCode, detail: string, extensions: Record<string, unknown> = {}) => {
  return reply.code(PROBLEMS[code].status).type('application/problem+json').send(problemJson(code, detail, extensions));
};

function fieldError(e: ErrorObject): FieldError {
  if (e.keyword === 'required') return { pointer: `${e.instancePath}/${String(e.params['missingProperty'])}`, message: 'is required' };
  if (e.keyword === 'additionalProperties') return { pointer: `${e.instancePath}/${String(e.params['additionalProperty'])}`, message: 'is not a known field' };
  return { pointer: e.instancePath, message: e.message ?? 'is invalid' };
}

app.setErrorHandler((err: FastifyError, _request, reply) => {
  if (err.validation) {
    return sendProblem(reply, 'validation-failed', 'the request body does not match the schema; see errors', {
      errors: (err.validation as ErrorObject[]).map(fieldError),
    });
  }
  if (err.statusCode === 415) return sendProblem(reply, 'unsupported-media-type', err.message);
  if (err.statusCode === 413) return sendProblem(reply, 'payload-too-large', 'body is limited to 4096 bytes');
  if (err.statusCode === 400) return sendProblem(reply, 'invalid-json', err.message);
  return sendProblem(reply, 'internal-error', 'unexpected error; this is a bug');
});
app.setNotFoundHandler((request, reply) => sendProblem(reply, 'not-found', `no resource at ${request.url}`));

const ping = createPingHandler(resolvers);
const dns = createDnsHandler(resolvers);

app.post<{ Body: PingRequest }>('/api/tools/ping', { schema: { body: pingRequestSchema } }, async (request, reply) => {
  reply.header('access-control-allow-origin', '*');
  const normalised = { ...request.body, host: (parseHost(request.body.host) as { value: string }).value };
  const outcome = await ping(normalised);
  if (outcome.status === 200) return outcome.body;
  return sendProblem(reply, outcome.body['code'] as ProblemCode, String(outcome.body['detail']));
});

app.post<{ Body: DnsRequest }>('/api/tools/dns', { schema: { body: dnsRequestSchema(resolvers.map((r) => r.id)) } }, async (request, reply) => {
  reply.header('access-control-allow-origin', '*');
  // The default types are applied after the schema now (an IP literal's default is PTR): the same here.
  const normalised = { ...request.body, domain: parseDomain(request.body.domain) as string, types: request.body.types ?? [...DEFAULT_TYPES] };
  const outcome = await dns(normalised);
  if (outcome.status === 200) return outcome.body;
  return sendProblem(reply, 'upstream-timeout', 'no resolver answered any query', outcome.body);
});

app.get('/health', async () => ({ status: 'ok' }));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}

app.listen({ host, port }).then(
  () => {
    const address = app.server.address();
    const bound = typeof address === 'object' && address !== null ? address.port : port;
    process.stdout.write(JSON.stringify({ msg: 'listening', port: bound }) + '\n');
  },
  (err: Error) => fail(err.message),
);

import { PROBLEM_TYPE_BASE, PROBLEMS } from './codes';

export const problemSchema = {
  $id: 'Problem',
  type: 'object',
  description: 'RFC 9457 problem details.',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', format: 'uri', description: 'A URI naming the problem: the base followed by `code`.' },
    title: { type: 'string', description: 'A fixed sentence for the code.' },
    status: { type: 'integer', description: 'The HTTP status of the response.' },
    detail: { type: 'string', description: 'What went wrong with this request, in words.' },
    code: { enum: Object.keys(PROBLEMS), description: 'A stable slug to act on; each response lists when its codes are answered.' },
    unlistedErrors: {
      type: 'integer',
      minimum: 1,
      description: 'Only on validation-failed, when the body has more errors than `errors` lists (at most 10): how many more.',
    },
    errors: {
      type: 'array',
      description: 'Only on validation-failed: each field that is wrong, at most 10 (see `unlistedErrors`).',
      items: {
        type: 'object',
        required: ['pointer', 'message'],
        properties: {
          pointer: { type: 'string', description: 'JSON Pointer into the request body (on /probe: the query parameter).' },
          message: { type: 'string', description: 'What is wrong with it.' },
        },
      },
    },
    resolvers: {
      type: 'array',
      description:
        'Only on upstream-failed and upstream-timeout: each resolver asked and what it said. From dns, as in its 200 (every query); from ping or traceroute resolving a host name, its rcode or error for the last record type asked.',
      items: {
        anyOf: [
          { $ref: 'DnsResolverResult' },
          {
            type: 'object',
            description: 'One resolver asked for a host name\'s address.',
            required: ['id', 'address'],
            properties: {
              id: { type: 'string', description: "The resolver's id in the server's configuration." },
              address: { type: 'string', description: "The resolver's address." },
              rcode: { type: 'string', description: 'Its answer\'s response code (REFUSED, SERVFAIL, ...).', examples: ['REFUSED'] },
              error: { type: 'string', description: 'Why no answer came instead: timeout, connection-refused, malformed, ...', examples: ['timeout'] },
            },
          },
        ],
      },
    },
    durationMs: { type: 'number', minimum: 0, description: 'Only on upstream-failed and upstream-timeout from dns: how long the resolvers were waited for, ms.' },
    dns: {
      enum: ['nxdomain', 'no-data'],
      description: 'Only on host-not-found: what the resolvers said. nxdomain: the name does not exist; no-data: it exists, without an address of the wanted family.',
    },
    range: { type: 'string', description: 'Only on target-forbidden: the refused range the address is in, e.g. loopback or ipv4-mapped:private.', examples: ['loopback'] },
    url: { type: 'string', description: 'Only on target-forbidden from the http check, when a redirect was refused: the URL it led to.' },
    redirects: { type: 'array', description: 'Only on target-forbidden from the http check, when a redirect was refused: the redirects followed before it, as the 200 lists them.', items: { type: 'object' } },
  },
  examples: [
    {
      type: `${PROBLEM_TYPE_BASE}validation-failed`,
      title: PROBLEMS['validation-failed'].title,
      status: 400,
      detail: 'the request body does not match the schema; see errors',
      code: 'validation-failed',
      errors: [{ pointer: '/count', message: 'must be <= 10' }],
    },
  ],
} as const;

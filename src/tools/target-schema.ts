// The request fields every measurement tool on the target path takes (target-path.ts): the host, and the
// family a name resolves to. One definition, so ping, traceroute and what comes next describe them alike.
export const hostProperty = {
  type: 'string',
  minLength: 1,
  maxLength: 253,
  format: 'host',
  description: 'Host name (IDN in Unicode is converted to ASCII), IPv4 literal, or IPv6 literal (brackets allowed). No scheme, port, path, spaces or control characters.',
  examples: ['example.com', '192.0.2.10', '[2001:db8::10]'],
} as const;

// Every tool on the target path reports it: in its start event (target-path.ts), and ping in its result.
export const resolveMsProperty = { type: 'number', minimum: 0, description: 'Time spent resolving the host name, ms (near 0 for an IP literal).' } as const;

export const ipVersionProperty = {
  enum: [4, 6],
  description: 'Address family to resolve a host name to; an IP literal decides it itself. Without it: IPv4 first, then IPv6.',
} as const;

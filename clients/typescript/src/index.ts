// nettools' typed client: fetch only, no dependencies, for Node 20+ and browsers.
export { NettoolsClient, type CallOptions, type ClientOptions, type RetryOptions, type WaitNotice } from './client.js';
export { entryProblem, resolversFailed, unansweredTypes, type Answer, type ClientError } from './answer.js';
export { NettoolsError } from './error.js';
export { readRateLimit, retryAfterSeconds, type RateLimitInfo } from './rate-limit.js';
export type { At, DnsLocated, DnsLocatedEvent, DnsVerdict, Here, Location, LocationEntry, LocationsSelector, MtrLocated, MtrLocatedEvent, TcpLocated, TcpLocatedEvent, TlsLocated, PingLocated, PingLocatedEvent, ReachedVerdict, TracerouteLocated, TracerouteLocatedEvent, DnsEvent, DnsOutcome, DnsRequest, DnsResolverResult, DnsResult, HostResolverReport, DnsStreamEvent, Limits, MtrEvent, MtrHop, MtrRequest, MtrResult, MtrStreamEvent, PingEvent, PingRequest, PingResult, PingStreamEvent, Problem, ProblemCode, RecordType, TracerouteEvent, TracerouteHop, TracerouteProbe, TracerouteRequest, TracerouteResult, TracerouteStreamEvent, TcpAttempt, TcpEvent, TcpRequest, TcpResult, TcpStreamEvent, TlsCertificate, TlsRequest, TlsResult } from './types.js';
export type { components, operations, paths } from './generated/openapi.js';

import type { components } from './generated/openapi.js';

// The API's own names for what goes in and comes out, from the generated types.
type Schemas = components['schemas'];
export type PingRequest = Schemas['PingRequest'];
export type PingResult = Schemas['PingResult'];
export type DnsRequest = Schemas['DnsRequest'];
export type DnsResult = Schemas['DnsResult'];
export type DnsResolverResult = Schemas['DnsResolverResult'];
export type RecordType = NonNullable<DnsRequest['types']>[number];
export type TracerouteRequest = Schemas['TracerouteRequest'];
export type TracerouteResult = Schemas['TracerouteResult'];
export type TracerouteHop = TracerouteResult['hops'][number];
export type TracerouteProbe = TracerouteHop['probes'][number];
export type MtrRequest = Schemas['MtrRequest'];
export type MtrResult = Schemas['MtrResult'];
export type MtrHop = MtrResult['hops'][number];
export type TcpRequest = Schemas['TcpRequest'];
export type TcpResult = Schemas['TcpResult'];
export type TcpAttempt = TcpResult['results'][number];
export type Limits = Schemas['Limits'];
export type Problem = Schemas['Problem'];
export type ProblemCode = Problem['code'];
// What the resolvers that answered a type said of it: records, no-data, nxdomain, or upstream-failed
// (none of them answered that type).
export type DnsOutcome = NonNullable<DnsResult['outcomes'][RecordType]>;
// One resolver's word in an upstream-failed or upstream-timeout problem of ping or traceroute.
export type HostResolverReport = Exclude<NonNullable<Problem['resolvers']>[number], DnsResolverResult>;
export type PingStreamEvent = Schemas['PingStreamEvent'];
export type DnsStreamEvent = Schemas['DnsStreamEvent'];
export type TracerouteStreamEvent = Schemas['TracerouteStreamEvent'];
export type MtrStreamEvent = Schemas['MtrStreamEvent'];
export type TcpStreamEvent = Schemas['TcpStreamEvent'];
// What a streamed call yields: every event of the stream but `problem`, which is thrown instead (and
// `locations`, which ends only a stream asked with `locations`: this client does not ask for them yet).
export type PingEvent = Exclude<PingStreamEvent, { event: 'problem' | 'locations' }>;
export type DnsEvent = Exclude<DnsStreamEvent, { event: 'problem' | 'locations' }>;
export type TracerouteEvent = Exclude<TracerouteStreamEvent, { event: 'problem' | 'locations' }>;
export type MtrEvent = Exclude<MtrStreamEvent, { event: 'problem' | 'locations' }>;
export type TcpEvent = Exclude<TcpStreamEvent, { event: 'problem' | 'locations' }>;

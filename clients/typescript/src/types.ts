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
export type TlsRequest = Schemas['TlsRequest'];
export type TlsResult = Schemas['TlsResult'];
export type TlsCertificate = NonNullable<TlsResult['certificates']>[number];
export type HttpRequest = Schemas['HttpRequest'];
export type HttpResult = Schemas['HttpResult'];
export type HttpRedirect = HttpResult['redirects'][number];
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
export type TlsStreamEvent = Schemas['TlsStreamEvent'];
export type HttpStreamEvent = Schemas['HttpStreamEvent'];
// What a streamed call yields: every event of the stream but `problem`, which is thrown instead (and
// `locations`, which ends only a stream asked with `locations`: see the *LocatedEvent types for those).
export type PingEvent = Exclude<PingStreamEvent, { event: 'problem' | 'locations' }>;
export type DnsEvent = Exclude<DnsStreamEvent, { event: 'problem' | 'locations' }>;
export type TracerouteEvent = Exclude<TracerouteStreamEvent, { event: 'problem' | 'locations' }>;
export type MtrEvent = Exclude<MtrStreamEvent, { event: 'problem' | 'locations' }>;
export type TcpEvent = Exclude<TcpStreamEvent, { event: 'problem' | 'locations' }>;
export type TlsEvent = Exclude<TlsStreamEvent, { event: 'problem' | 'locations' }>;
export type HttpEvent = Exclude<HttpStreamEvent, { event: 'problem' | 'locations' }>;

// Where a request measures (GET /api/locations names them): names, "all", or any N of them.
export type Location = Schemas['Location'];
export type LocationsSelector = NonNullable<PingRequest['locations']>;
// A request with `locations`, and one without: the tool calls answer each with its own type.
export type At<R> = R & { locations: LocationsSelector };
export type Here<R> = R & { locations?: undefined };

// A request with `locations`: each location's own 200 body or `{ problem }`, by name in the order asked,
// and what they say together (the verdict).
export type PingLocated = Schemas['PingLocated'];
export type DnsLocated = Schemas['DnsLocated'];
export type TracerouteLocated = Schemas['TracerouteLocated'];
export type MtrLocated = Schemas['MtrLocated'];
export type TcpLocated = Schemas['TcpLocated'];
export type TlsLocated = Schemas['TlsLocated'];
export type HttpLocated = Schemas['HttpLocated'];
// ping, traceroute, mtr, tcp, tls, http: from how many locations the target was reached; dns: whether every location
// (and its resolvers) saw the same records, and how many answered at all.
export type ReachedVerdict = PingLocated['verdict'];
export type DnsVerdict = DnsLocated['verdict'];
// One location's entry: its own 200 body, or the problem a request of its own would have had there.
export type LocationEntry<R> = R | { problem: Problem };

// A streamed call with `locations` yields every location's events, each data with its `location`: its
// `start`, its results, then its `summary` or its `problem` (yielded, not thrown: the others go on);
// then one `locations` event holding the JSON body, which ends the stream.
type Tagged<E> = E extends { event: infer N; data: infer D } ? { event: N; data: D & { location: string } } : never;
type LocatedEvents<S, L> = Tagged<Exclude<S, { event: 'locations' }>> | { event: 'locations'; data: L };
export type PingLocatedEvent = LocatedEvents<PingStreamEvent, PingLocated>;
export type DnsLocatedEvent = LocatedEvents<DnsStreamEvent, DnsLocated>;
export type TracerouteLocatedEvent = LocatedEvents<TracerouteStreamEvent, TracerouteLocated>;
export type MtrLocatedEvent = LocatedEvents<MtrStreamEvent, MtrLocated>;
export type TcpLocatedEvent = LocatedEvents<TcpStreamEvent, TcpLocated>;
export type TlsLocatedEvent = LocatedEvents<TlsStreamEvent, TlsLocated>;
export type HttpLocatedEvent = LocatedEvents<HttpStreamEvent, HttpLocated>;

// What every DNS engine in the comparison asks: the bench zone's A, AAAA, MX and TXT, the four
// questions one dns request puts to each resolver. dnsperf reads them from its query file in turn,
// dns.Resolver asks them in turn, the native engine gets them in one call.
export const ENGINE_QUESTION_TYPES = ['A', 'AAAA', 'MX', 'TXT'] as const;

export type EngineQuestionType = (typeof ENGINE_QUESTION_TYPES)[number];

export interface DnsEngineOptions {
  address: string;
  port: number;
  name: string;
  durationS: number;
  inFlight: number; // queries outstanding
}

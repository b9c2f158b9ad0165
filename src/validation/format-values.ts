import { parseDnsTarget, parseHost, type DnsTarget, type HostTarget } from './names';

// What the `host` and `domain` formats made of a body's field while ajv checked it, kept for the
// normalize step to take instead of parsing the same text again (a host's address, a domain's ASCII
// form or an IP literal's reverse name): the text is parsed once, at the edge. One compiled validator checks one body and normalizes it
// in the same synchronous call, so the last value its format made is the one for that body's field.
export interface FormatValues {
  host(input: string): HostTarget | null;
  domain(input: string): DnsTarget | null;
}

// The parsers the formats use: the real ones, or counting ones in a test.
export interface FormatParsers {
  host(input: string): HostTarget | null;
  domain(input: string): DnsTarget | null;
}

export const PARSERS: FormatParsers = { host: parseHost, domain: parseDnsTarget };

// Parses whenever asked: for a caller with no validation behind it.
export const PARSE_AGAIN: FormatValues = PARSERS;

// The last text one format checked and the value it made; a different text (a caller that changed the
// body in between) is parsed afresh, so a kept value never stands for another text.
class Kept<V> {
  private input: string | undefined;
  private value: V | null = null;

  constructor(private readonly parse: (input: string) => V | null) {}

  check(input: string): boolean {
    this.input = input;
    this.value = this.parse(input);
    return this.value !== null;
  }

  take(input: string): V | null {
    if (input !== this.input) return this.parse(input);
    const value = this.value;
    this.input = undefined; // the request owns it now
    this.value = null;
    return value;
  }
}

// One per compiled schema set: `check` is what ajv's format calls, `values` what normalize reads.
export class FormatKeeper {
  private readonly hosts: Kept<HostTarget>;
  private readonly domains: Kept<DnsTarget>;
  readonly values: FormatValues;

  constructor(parsers: FormatParsers = PARSERS) {
    this.hosts = new Kept(parsers.host);
    this.domains = new Kept(parsers.domain);
    this.values = { host: (s) => this.hosts.take(s), domain: (s) => this.domains.take(s) };
  }

  checkHost(input: string): boolean {
    return this.hosts.check(input);
  }

  checkDomain(input: string): boolean {
    return this.domains.check(input);
  }
}

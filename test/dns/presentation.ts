import type { DnsRecord, RecordType, SvcParams } from '../../src/engines/dns';

// Our records written as kdig writes their RDATA, so each can be compared with kdig's line for line:
// absolute names, hex in upper case, character-strings quoted.

function abs(name: string): string {
  return name === '.' ? '.' : `${name}.`;
}

function quoted(s: string): string {
  return `"${s}"`;
}

function svcParamText(key: string, value: unknown): string {
  if (value === true) return key;
  if (Array.isArray(value)) return `${key}=${value.join(',')}`;
  if (/^key\d+$/.test(key)) return value === '' ? key : `${key}=${quoted(Buffer.from(String(value), 'hex').toString('latin1'))}`;
  return `${key}=${String(value)}`;
}

function svcParamsText(params: SvcParams): string {
  return Object.entries(params).map(([k, v]) => svcParamText(k, v)).join(' ');
}

type Fields = Record<string, unknown>;

export function presentation(type: RecordType, record: DnsRecord): string {
  const r = record as unknown as Fields;
  const s = (k: string) => String(r[k]);
  switch (type) {
    case 'NS': case 'PTR': return abs(s('name'));
    case 'CNAME': return abs(s('target'));
    case 'SOA': return `${abs(s('mname'))} ${abs(s('rname'))} ${s('serial')} ${s('refresh')} ${s('retry')} ${s('expire')} ${s('minimum')}`;
    case 'CAA': return `${s('flags')} ${s('tag')} ${quoted(s('value'))}`;
    case 'SRV': return `${s('priority')} ${s('weight')} ${s('port')} ${abs(s('target'))}`;
    case 'NAPTR': return `${s('order')} ${s('preference')} ${quoted(s('flags'))} ${quoted(s('services'))} ${quoted(s('regexp'))} ${abs(s('replacement'))}`;
    case 'DS': return `${s('keyTag')} ${s('algorithm')} ${s('digestType')} ${s('digest').toUpperCase()}`;
    case 'DNSKEY': return `${s('flags')} ${s('protocol')} ${s('algorithm')} ${s('publicKey')}`;
    case 'TLSA': return `${s('usage')} ${s('selector')} ${s('matchingType')} ${s('data').toUpperCase()}`;
    case 'HTTPS': case 'SVCB': {
      const params = svcParamsText(r.params as SvcParams);
      return params === '' ? `${s('priority')} ${abs(s('target'))}` : `${s('priority')} ${abs(s('target'))} ${params}`;
    }
    case 'TXT': return (r.parts as string[]).map(quoted).join(' ');
    default: throw new Error(`no presentation for ${type}`);
  }
}

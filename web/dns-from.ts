import { client, follow, problemText } from './api.js';
import type { DnsLocatedEvent, DnsRequest, DnsResult, Here } from './client/index.js';
import { recordText } from './dns-record.js';
import { say } from './dom.js';
import { LocatedTable, locationsText } from './located-table.js';

// A lookup from several locations: each location's row says how many answers came, then its merged
// records and whether its own resolvers agreed; the verdict says whether the locations saw the same.

export const DNS_COLUMNS = ['Status', 'Records', 'Resolvers agree'];

export async function dnsFrom(body: Here<DnsRequest>, names: string[], table: LocatedTable, status: HTMLElement): Promise<void> {
  const answers = new Map(names.map((n) => [n, 0]));
  table.start(names);
  say(status, `Asking about ${body.domain} from ${locationsText(names.length)}…`);
  const end = await follow(client.dnsStream({ ...body, locations: names }), (e) => onEvent(e, table, answers, status));
  if (end !== null) say(status, end.text, 'error');
}

function recordsText(records: DnsResult['records']): string {
  const lines = Object.entries(records)
    .filter(([, list]) => list !== undefined && list.length > 0)
    .map(([type, list]) => `${type} ${(list ?? []).map((r) => recordText(type, r)).join(', ')}`);
  return lines.length > 0 ? lines.join('\n') : 'no records';
}

function onEvent(e: DnsLocatedEvent, table: LocatedTable, answers: Map<string, number>, status: HTMLElement): void {
  if (e.event === 'locations') {
    const { consistent, answered, of } = e.data.verdict;
    say(status, 'Done.');
    const text = consistent ? 'Every location saw the same records' : 'The locations disagree';
    return table.conclude(`${text} (${answered} of ${locationsText(of)} answered).`, consistent && answered === of);
  }
  const at = e.data.location;
  if (e.event === 'start') table.set(at, { Status: `asking ${e.data.resolvers.length} resolvers` });
  else if (e.event === 'answer') {
    const n = (answers.get(at) ?? 0) + 1;
    answers.set(at, n);
    table.set(at, { Status: `${n} ${n === 1 ? 'answer' : 'answers'}` });
  } else if (e.event === 'summary') {
    table.set(at, { Status: 'answered', Records: recordsText(e.data.records), 'Resolvers agree': e.data.consistent ? 'yes' : 'no' }, 'done');
  } else if (e.event === 'problem') table.set(at, { Status: problemText(e.data), Records: '–', 'Resolvers agree': '–' }, 'failed');
}

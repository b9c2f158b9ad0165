import type { NettoolsClient } from '../client.js';
import type { DnsEvent, DnsRequest, Here } from '../types.js';
import { answerLines, dnsVerdict, formatDns, type DnsChecks } from './format-dns.js';
import { verdict } from './refused.js';
import { watch, type WatchCommand, type WatchIo, type Watcher } from './watch.js';

// `nettools dns DOMAIN --watch`: each resolver's answer to each type as it lands, then the usual result
// and its checks; Ctrl-C before the summary is a measurement that did not finish (exit 1).
export function watchDns(client: NettoolsClient, request: Here<DnsRequest>, cmd: WatchCommand & DnsChecks, io: WatchIo): Promise<number> {
  return watch((signal) => client.dnsStream(request, { signal }), cmd, io, dnsWatcher(request, cmd, io));
}

// The same, event by event: what the command prints of each, for one stream or one location's part of it.
export function dnsWatcher(request: DnsRequest, cmd: WatchCommand & DnsChecks, io: WatchIo): Watcher<DnsEvent> {
  let domain = request.domain;
  let asked = 0;
  let landed = 0;
  const text = (lines: string[]) => (cmd.json ? undefined : lines.forEach((l) => io.out(l)));
  return {
    event(e) {
      if (e.event === 'start') {
        domain = e.data.domain;
        asked = e.data.resolvers.length * e.data.types.length;
        return text([`;; asking ${e.data.resolvers.map((r) => `${r.id} (${r.address})`).join(', ')} for ${e.data.types.join(', ')} of ${e.data.domain}`]), null;
      }
      if (e.event === 'answer') {
        landed++;
        return text(answerLines(e.data, domain.replace(/\.$/, ''))), null;
      }
      text(['', ...formatDns(e.data, cmd.server)]);
      return dnsVerdict(e.data, cmd, io);
    },
    interrupted: () => verdict(`interrupted with ${landed} of ${asked} answers in`, io),
  };
}

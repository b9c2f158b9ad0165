import { execFile } from 'node:child_process';

// One answer-section line of kdig, asked of a test server on loopback only.
export interface KdigRecord {
  owner: string; // absolute, as kdig prints it
  ttl: number;
  type: string;
  rdata: string; // presentation form, trailing spaces trimmed
}

// `kdig @address -p port +noall +answer name type`: the answer section (over TCP after a truncated UDP
// answer, as kdig does by itself). The address must be a loopback literal: nothing here resolves names.
export function kdigAnswer(address: string, port: number, name: string, type: string): Promise<KdigRecord[]> {
  if (!/^127\.|^::1$/.test(address)) throw new Error(`kdig is only asked of loopback test servers, not ${address}`);
  return new Promise((resolve, reject) => {
    execFile('kdig', [`@${address}`, '-p', String(port), '+noall', '+answer', '+timeout=2', '+retry=0', name, type], { maxBuffer: 1 << 22 }, (err, stdout) => {
      if (err) return reject(err);
      const records: KdigRecord[] = [];
      for (const line of stdout.split('\n')) {
        if (line.startsWith(';') || line.trim() === '') continue;
        const [owner = '', ttl = '', klass = '', rtype = '', ...rest] = line.split('\t');
        if (klass !== 'IN') continue;
        records.push({ owner: owner.trim(), ttl: Number(ttl), type: rtype, rdata: rest.join('\t').trim() });
      }
      resolve(records);
    });
  });
}

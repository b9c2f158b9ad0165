import dgram from 'node:dgram';

// A loopback UDP "resolver" whose answers the test writes: it records every query with the source port
// and transaction ID it came with, and hands it to the test's handler, which decides what goes back.
export interface SeenQuery {
  address: string;
  port: number;
  id: number;
  name: string;
  type: number;
  raw: Buffer;
}

export interface ScriptedDns {
  address: string;
  port: number;
  seen: SeenQuery[];
  send(msg: Buffer, to: SeenQuery): Promise<void>;
  stop(): Promise<void>;
}

// Offset just past the question name; our queries are never compressed.
function questionNameEnd(msg: Buffer): number {
  let i = 12;
  while (i < msg.length && msg[i] !== 0) i += (msg[i] ?? 0) + 1;
  return i + 1;
}

function questionName(msg: Buffer): string {
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length && msg[i] !== 0) {
    const len = msg[i] ?? 0;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('latin1'));
    i += len + 1;
  }
  return labels.join('.');
}

// A NOERROR response to `query` (its question copied) with one A record; `id` defaults to the query's own.
export function answerA(query: SeenQuery, address: string, id = query.id): Buffer {
  const questionEnd = questionNameEnd(query.raw) + 4;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x8180, 2); // QR, RD, RA
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(1, 6);
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0); // the question's name
  record.writeUInt16BE(1, 2);
  record.writeUInt16BE(1, 4);
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(4, 10);
  address.split('.').forEach((octet, i) => record.writeUInt8(Number(octet), 12 + i));
  return Buffer.concat([header, query.raw.subarray(12, questionEnd), record]);
}

export async function startScriptedDns(onQuery: (q: SeenQuery, dns: ScriptedDns) => void, address = '127.0.0.1'): Promise<ScriptedDns> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.bind(0, address, () => resolve());
  });
  // An answer a test scheduled for later (a timer per query seen, resends included) may fall due after
  // the test stopped the server: a stopped server sends nothing, as a real one would not.
  let stopped = false;
  const dns: ScriptedDns = {
    address,
    port: s.address().port,
    seen: [],
    send: (msg, to) => (stopped ? Promise.resolve() : new Promise((resolve, reject) => s.send(msg, to.port, to.address, (err) => (err ? reject(err) : resolve())))),
    stop: () => {
      stopped = true;
      return new Promise((resolve) => s.close(() => resolve()));
    },
  };
  s.on('message', (raw, peer) => {
    const nameEnd = questionNameEnd(raw);
    const q: SeenQuery = { address: peer.address, port: peer.port, id: raw.readUInt16BE(0), name: questionName(raw), type: raw.readUInt16BE(nameEnd), raw };
    dns.seen.push(q);
    onQuery(q, dns);
  });
  return dns;
}

import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { randomBytes, randomInt } from 'node:crypto';

// A resolver on loopback that never gives a usable answer: each UDP query gets one of several kinds of
// garbage, and some get a well-formed truncated (TC) answer so the engine comes back over TCP, where the
// stream carries garbage too or just closes.

export interface GarbageResolver {
  address: string;
  port: number;
  answered: Record<string, number>; // per kind of garbage sent
  stop(): Promise<void>;
}

type Kind = 'random-bytes' | 'wrong-id' | 'cut-header' | 'pointer-loop' | 'truncated-tc' | 'silence';
const KINDS: Kind[] = ['random-bytes', 'wrong-id', 'cut-header', 'pointer-loop', 'truncated-tc', 'silence'];

// The query's header and question turned into a response (QR set) with the given ID and flags.
function asResponse(query: Buffer, id: number, extraFlags: number): Buffer {
  const out = Buffer.from(query);
  out.writeUInt16BE(id, 0);
  out.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x0100) | extraFlags, 2);
  out.writeUInt16BE(0, 6); // no answers claimed
  out.writeUInt16BE(0, 8);
  out.writeUInt16BE(0, 10); // the OPT record is cut off below
  return out.subarray(0, questionEnd(query));
}

function questionEnd(query: Buffer): number {
  let at = 12;
  while (at < query.length && query[at] !== 0) at += 1 + (query[at] as number);
  return Math.min(query.length, at + 5);
}

function garbageFor(kind: Kind, query: Buffer): Buffer | null {
  if (query.length < 12) return randomBytes(12);
  const id = query.readUInt16BE(0);
  switch (kind) {
    case 'random-bytes':
      return randomBytes(randomInt(1, 600));
    case 'wrong-id':
      return asResponse(query, (id + 1 + randomInt(0, 65534)) & 0xffff, 0);
    case 'cut-header':
      return asResponse(query, id, 0).subarray(0, randomInt(1, 12));
    case 'pointer-loop': {
      // The right ID and question, then one answer whose owner name points at itself.
      const head = asResponse(query, id, 0);
      head.writeUInt16BE(1, 6);
      const at = head.length;
      const answer = Buffer.from([0xc0 | (at >> 8), at & 0xff, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 1]);
      return Buffer.concat([head, answer]);
    }
    case 'truncated-tc':
      return asResponse(query, id, 0x0200);
    case 'silence':
      return null;
  }
}

export async function startGarbageResolver(address: string, port: number): Promise<GarbageResolver> {
  const answered: Record<string, number> = {};
  const udp: Socket = createSocket('udp4');
  udp.on('message', (msg, from) => {
    const kind = KINDS[randomInt(0, KINDS.length)] as Kind;
    answered[kind] = (answered[kind] ?? 0) + 1;
    const reply = garbageFor(kind, msg);
    if (reply !== null) udp.send(reply, from.port, from.address);
  });
  const tcp: Server = createServer((conn) => {
    conn.on('error', () => {});
    // Over TCP: half the time a length-prefixed random message, else a close without a word.
    conn.once('data', () => {
      answered['tcp'] = (answered['tcp'] ?? 0) + 1;
      if (randomInt(0, 2) === 0) {
        const body = randomBytes(randomInt(1, 300));
        const len = Buffer.alloc(2);
        len.writeUInt16BE(body.length + randomInt(0, 3)); // sometimes longer than what follows
        conn.end(Buffer.concat([len, body]));
      } else {
        conn.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, address, () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, address, () => resolve());
  });
  return {
    address,
    port,
    answered,
    stop: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

import dgram from 'node:dgram';
import net from 'node:net';
import { freeDnsPort } from './ports';

// A loopback "resolver" whose one answer record the test writes as raw RDATA, for shapes no real server
// sends. Over UDP it answers either with that record or truncated (TC), so the client asks again over
// TCP, where the stream is its own and a malformed answer is reported rather than dropped.
export interface RdataDns {
  address: string;
  port: number;
  udpQueries: number;
  tcpQueries: number;
  stop(): Promise<void>;
}

export interface RdataScript {
  type: number; // the answer record's type
  rdata: Buffer; // its RDATA, written after the record header as it is
  udp: 'truncate' | 'answer' | 'answer-then-valid'; // 'answer-then-valid': the bad answer, then `valid`
  valid?: Buffer; // a well-formed RDATA of the same type, for 'answer-then-valid'
}

function questionEnd(query: Buffer): number {
  let i = 12;
  while (i < query.length && query[i] !== 0) i += (query[i] ?? 0) + 1;
  return i + 5; // the root byte, type and class
}

// A response to `query` (its ID and question) with one record owned by the question's name (a pointer to it).
export function responseWith(query: Buffer, type: number, rdata: Buffer, flags = 0x8180): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(flags, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(flags & 0x0200 ? 0 : 1, 6);
  const record = Buffer.alloc(12);
  record.writeUInt16BE(0xc00c, 0);
  record.writeUInt16BE(type, 2);
  record.writeUInt16BE(1, 4);
  record.writeUInt32BE(300, 6);
  record.writeUInt16BE(rdata.length, 10);
  const question = query.subarray(12, questionEnd(query));
  return flags & 0x0200 ? Buffer.concat([header, question]) : Buffer.concat([header, question, record, rdata]);
}

export async function startRdataDns(script: RdataScript, address = '127.0.0.1'): Promise<RdataDns> {
  const port = await freeDnsPort(address);
  const udp = dgram.createSocket('udp4');
  const sockets = new Set<net.Socket>();
  const dns: RdataDns = { address, port, udpQueries: 0, tcpQueries: 0, stop: async () => {} };
  udp.on('message', (query, peer) => {
    dns.udpQueries++;
    const reply = (msg: Buffer) => udp.send(msg, peer.port, peer.address);
    if (script.udp === 'truncate') return reply(responseWith(query, script.type, script.rdata, 0x8380));
    reply(responseWith(query, script.type, script.rdata));
    if (script.udp === 'answer-then-valid' && script.valid) setTimeout(() => reply(responseWith(query, script.type, script.valid as Buffer)), 20);
  });
  const tcp = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    sock.once('data', (framed) => {
      dns.tcpQueries++;
      const body = responseWith(framed.subarray(2), script.type, script.rdata);
      const len = Buffer.alloc(2);
      len.writeUInt16BE(body.length);
      sock.end(Buffer.concat([len, body]));
    });
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, address, () => resolve());
  });
  await new Promise<void>((resolve) => tcp.listen(port, address, resolve));
  dns.stop = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    await new Promise<void>((resolve) => udp.close(() => resolve()));
  };
  return dns;
}

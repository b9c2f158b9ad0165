import dgram from 'node:dgram';
import { sleep } from './wait';

// A hostile UDP "resolver" on loopback. For each query it forwards to a real server for the true answer,
// then first sends forgeries a spoofer or a broken network could produce, and only then the true answer
// (with the question name's case flipped, which a correct client must still accept).
export interface FaultCounts {
  queries: number;
  mismatched: number; // wrong ID, wrong question, not a response, wrong source port
  malformed: number; // cut short, garbage, compression loops
}

export interface FaultDns {
  address: string;
  port: number;
  sent: FaultCounts;
  sourcePorts: number[]; // the client's source port of each query, in arrival order
  stop(): Promise<void>;
}

function bind(address: string): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    s.once('error', reject);
    s.bind(0, address, () => resolve(s));
  });
}

function close(s: dgram.Socket): Promise<void> {
  return new Promise((resolve) => s.close(() => resolve()));
}

function send(s: dgram.Socket, msg: Buffer, port: number, address: string): Promise<void> {
  return new Promise((resolve, reject) => s.send(msg, port, address, (err) => (err ? reject(err) : resolve())));
}

// Offset just past the question name; queries are never compressed.
function questionNameEnd(msg: Buffer): number {
  let i = 12;
  while (i < msg.length && msg[i] !== 0) i += (msg[i] ?? 0) + 1;
  return i + 1;
}

function forgeries(real: Buffer): { mismatched: Buffer[]; malformed: Buffer[] } {
  const nameEnd = questionNameEnd(real);
  const wrongId = Buffer.from(real);
  wrongId.writeUInt16BE(real.readUInt16BE(0) ^ 0x5a5a, 0);
  const wrongType = Buffer.from(real);
  wrongType.writeUInt16BE(real.readUInt16BE(nameEnd) === 1 ? 28 : 1, nameEnd);
  const wrongName = Buffer.from(real);
  wrongName[13] = wrongName[13] === 0x71 ? 0x72 : 0x71; // a different letter, not just another case
  const notResponse = Buffer.from(real);
  notResponse[2] = (notResponse[2] ?? 0) & 0x7f;

  const id = real.subarray(0, 2);
  const cutHeader = real.subarray(0, 7);
  const cutTail = real.subarray(0, real.length - 3);
  // QR, QDCOUNT=1, then a name that is a pointer to itself.
  const pointerLoop = Buffer.concat([id, Buffer.from([0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1])]);
  // Counts promising far more records than the bytes can hold.
  const hugeCounts = Buffer.concat([id, Buffer.from([0x81, 0x80, 0, 1, 0xff, 0xff, 0, 0, 0, 0]), real.subarray(12)]);
  return { mismatched: [wrongId, wrongType, wrongName, notResponse], malformed: [cutHeader, cutTail, pointerLoop, hugeCounts] };
}

export async function startFaultDns(upstream: { address: string; port: number }, address = '127.0.0.1'): Promise<FaultDns> {
  const server = await bind(address);
  const otherPort = await bind(address);
  const sent: FaultCounts = { queries: 0, mismatched: 0, malformed: 0 };
  const sourcePorts: number[] = [];
  const inFlight = new Set<Promise<void>>();

  async function askUpstream(query: Buffer): Promise<Buffer> {
    const s = await bind(address);
    try {
      return await new Promise<Buffer>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('upstream did not answer')), 2000);
        s.once('message', (msg) => {
          clearTimeout(timer);
          resolve(msg);
        });
        s.send(query, upstream.port, upstream.address);
      });
    } finally {
      await close(s);
    }
  }

  async function handle(query: Buffer, peer: dgram.RemoteInfo): Promise<void> {
    sent.queries++;
    const real = await askUpstream(query);
    const bad = forgeries(real);
    for (const msg of bad.mismatched) await send(server, msg, peer.port, peer.address);
    await send(otherPort, real, peer.port, peer.address);
    for (const msg of bad.malformed) await send(server, msg, peer.port, peer.address);
    sent.mismatched += bad.mismatched.length + 1;
    sent.malformed += bad.malformed.length;
    // Let every forgery land first: the true answer must win by validity, not by arriving first. No event
    // here says the client has read them, so a fixed pause.
    await sleep(20);
    const flipped = Buffer.from(real);
    for (let i = 13; i < questionNameEnd(real) - 1; i++) {
      const c = flipped[i] ?? 0;
      if (c >= 0x61 && c <= 0x7a) flipped[i] = c - 0x20;
    }
    await send(server, flipped, peer.port, peer.address);
  }

  server.on('message', (query, peer) => {
    sourcePorts.push(peer.port);
    const p = handle(query, peer).catch(() => undefined);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  });

  return {
    address,
    port: server.address().port,
    sent,
    sourcePorts,
    async stop() {
      await Promise.all(inFlight);
      await Promise.all([close(server), close(otherPort)]);
    },
  };
}

// A loopback UDP socket that reads queries and never answers: a resolver that has gone silent.
export async function startSilentDns(address = '127.0.0.1'): Promise<{ address: string; port: number; received: number; stop(): Promise<void> }> {
  const s = await bind(address);
  const state = {
    address,
    port: s.address().port,
    received: 0,
    stop: () => close(s),
  };
  s.on('message', () => state.received++);
  return state;
}

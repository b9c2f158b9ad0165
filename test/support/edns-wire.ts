import type { SeenQuery } from './scripted-dns';

// The OPT record of our queries and answers that carry one, for scripted resolvers: what a query's OPT
// asked (its flags, its options), and a response with an OPT record of the test's options appended.

export interface QueryOpt { flags: number; options: Array<{ code: number; data: Buffer }> }

// Our queries are one uncompressed question then the OPT record (native/dns/dns_query.cc).
export function queryOpt(q: SeenQuery): QueryOpt {
  let i = 12;
  while ((q.raw[i] ?? 0) !== 0) i += (q.raw[i] ?? 0) + 1;
  const opt = i + 1 + 4; // root byte of the name, type and class
  const flags = q.raw.readUInt16BE(opt + 7);
  const rdlength = q.raw.readUInt16BE(opt + 9);
  const options: QueryOpt['options'] = [];
  for (let at = opt + 11; at < opt + 11 + rdlength; ) {
    const len = q.raw.readUInt16BE(at + 2);
    options.push({ code: q.raw.readUInt16BE(at), data: q.raw.subarray(at + 4, at + 4 + len) });
    at += 4 + len;
  }
  return { flags, options };
}

// `response` (no additional records yet) with an OPT record carrying `options` added.
export function withOpt(response: Buffer, options: Array<{ code: number; data: Buffer }>): Buffer {
  const rdata = Buffer.concat(options.map(({ code, data }) => {
    const head = Buffer.alloc(4);
    head.writeUInt16BE(code, 0);
    head.writeUInt16BE(data.length, 2);
    return Buffer.concat([head, data]);
  }));
  const opt = Buffer.alloc(11);
  opt.writeUInt16BE(41, 1);
  opt.writeUInt16BE(1232, 3);
  opt.writeUInt16BE(rdata.length, 9);
  const out = Buffer.concat([response, opt, rdata]);
  out.writeUInt16BE(1, 10); // ARCOUNT
  return out;
}

export function ede(code: number, text = ''): { code: number; data: Buffer } {
  const data = Buffer.alloc(2 + Buffer.byteLength(text));
  data.writeUInt16BE(code, 0);
  data.write(text, 2);
  return { code: 15, data };
}

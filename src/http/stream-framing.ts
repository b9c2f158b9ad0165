export type StreamMode = 'ndjson' | 'sse';

// How a stream's events look on the wire, and how each event is made a whole HTTP chunk when it is
// written. uWS (the 20.30 and 20.69 builds alike) starts every chunk with the CRLF that closes the one
// before it: a chunk's end goes out only with the next write. A client that hands on a chunk once it is
// whole (urllib3, and so Python's requests) would get each event only with the next one, a minute late
// at a 60 s interval. So each event is followed at once by a second write, `filler`, that closes it; the
// next piece starts with `resume`, which makes the filler part of the format:
// - NDJSON: one space, the leading whitespace of the next line, which JSON allows (a blank line would
//   break a reader that parses every line);
// - SSE: ":", which the next piece's leading line break makes an empty comment line.
// The last event goes out with the end of the response, so no filler is left open.
// The filler is bytes, not text: uWS takes them as they are, where a string of one character cost each
// event a second conversion to UTF-8 (bench/README.md, Streams).
export interface Framing {
  contentType: string;
  filler: Uint8Array;
  resume: string;
  event(name: string, id: number, json: string): string; // without `resume`
  keepAlive: string | null; // a piece that only keeps the stream open, or null for none
}

export const FRAMINGS: Readonly<Record<StreamMode, Framing>> = {
  ndjson: {
    contentType: 'application/x-ndjson',
    filler: Buffer.from(' '),
    resume: '',
    event: (name, _id, json) => `{"event":"${name}","data":${json}}\n`,
    keepAlive: null,
  },
  sse: {
    contentType: 'text/event-stream; charset=utf-8',
    filler: Buffer.from(':'),
    resume: '\n',
    event: (name, id, json) => `event: ${name}\nid: ${id}\ndata: ${json}\n\n`,
    keepAlive: ': keep-alive\n\n',
  },
};

import net from 'node:net';

// A strict reader of a chunked response, on a plain socket: it hands on a chunk only once the chunk is
// whole, its size line, its data and its closing CRLF, as urllib3 (and so Python's requests) does. What a
// lenient reader (curl, browsers, Node) shows inside a chunk, this one holds back until the chunk ends.
export interface ChunkedResponse {
  head: string; // the status line and headers, once they are complete ('' until then)
  chunks: string[]; // the whole chunks so far, in order
  text(): string; // their data joined
  ended: boolean; // the last chunk (size 0) and its empty trailer are in
  error: string | null; // what broke the framing, if anything did
  closed: Promise<void>;
  close(): void;
}

export function postChunked(port: number, path: string, body: unknown, accept: string, headers: Record<string, string> = {}): ChunkedResponse {
  const payload = JSON.stringify(body);
  const socket = net.connect({ port, host: '127.0.0.1' });
  const more = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.on('connect', () =>
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ${accept}\r\n${more}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`),
  );
  const response: ChunkedResponse = {
    head: '',
    chunks: [],
    text: () => response.chunks.join(''),
    ended: false,
    error: null,
    closed: new Promise((done) => socket.on('close', () => done())),
    close: () => socket.destroy(),
  };
  let bytes: Buffer = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => {
    bytes = Buffer.concat([bytes, data]);
    bytes = takeWhole(bytes, response);
    // One request per connection: the response is over, and so is the connection.
    if (response.ended || response.error !== null) socket.destroy();
  });
  socket.on('error', () => undefined);
  return response;
}

// Moves what is complete in `bytes` into `r`; returns what is not complete yet.
function takeWhole(bytes: Buffer, r: ChunkedResponse): Buffer {
  if (r.head === '') {
    const end = bytes.indexOf('\r\n\r\n');
    if (end < 0) return bytes;
    r.head = bytes.subarray(0, end).toString('latin1');
    if (!/\r\ntransfer-encoding: chunked/i.test(r.head)) r.error = 'the response is not chunked';
    bytes = bytes.subarray(end + 4);
  }
  while (!r.ended && r.error === null) {
    const lineEnd = bytes.indexOf('\r\n');
    if (lineEnd < 0) return bytes;
    const sizeText = bytes.subarray(0, lineEnd).toString('latin1');
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) {
      r.error = `a chunk size line of ${JSON.stringify(sizeText)}`;
      return bytes;
    }
    const size = parseInt(sizeText, 16);
    const start = lineEnd + 2;
    if (bytes.length < start + size + 2) return bytes;
    if (bytes.toString('latin1', start + size, start + size + 2) !== '\r\n') {
      r.error = 'a chunk without its closing CRLF';
      return bytes;
    }
    // The last chunk's CRLF is the empty trailer's end.
    if (size === 0) r.ended = true;
    else r.chunks.push(bytes.toString('utf8', start, start + size));
    bytes = bytes.subarray(start + size + 2);
  }
  return bytes;
}

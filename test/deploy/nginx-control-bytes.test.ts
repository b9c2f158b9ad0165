import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http2 from 'node:http2';
import { startFrontDoor, type FrontDoor } from '../support/nginx';
import { exchangeTls } from '../support/raw-http';
import { sleep, waitFor } from '../support/wait';

// A control byte in a header value makes the uWS build drop the request without a word: reached
// directly, no answer until its idle timeout (~11 s); through nginx, a 502 after as long, nothing logged.
// deploy/nginx/nettools.conf refuses it at once for every header nettools reads. 3 s is a bound on that
// hang (far above nginx's own answer, far below ~11 s), not a speed target.
const test = suite<FrontDoor & { etag: string }>('nginx refuses control bytes in headers');

const ANSWER_WITHIN_MS = 3_000;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
// Every control byte that nginx lets into a header value on its own: it refuses NUL and a bare CR itself
// and reads LF as a line end; HTAB is allowed inside a value (RFC 9110 5.5).
const CONTROL = [...range(0x01, 0x08), 0x0b, 0x0c, ...range(0x0e, 0x1f), 0x7f].map((b) => String.fromCharCode(b));
const hex = (c: string) => `0x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

const BODY = '{"domain":"a b"}';
// The test servers' resolvers do not exist: each query fails fast, and the stream still starts.
const STREAM_BODY = '{"domain":"a.test","timeoutMs":100}';
const dnsPost = (lines: string) => `POST /api/tools/dns HTTP/1.1\r\nHost: x\r\n${lines}Connection: close\r\n\r\n${BODY}`;
const get = (path: string) => (line: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n${line}Connection: close\r\n\r\n`;

type LogEntry = Record<string, unknown>;
interface Case {
  header: string;
  clean: (ctx: { etag: string }) => string;
  request: (line: string) => string; // the whole request around the header line `line`
  // What nettools answers to the clean value; `seen` is what it logged, `client` the address sent from.
  works: (answer: string, seen: LogEntry[], client: string) => void;
  htab?: false; // a length is digits: nginx refuses a tab inside it as it should
}

// The headers nettools reads (grep src/ for getHeader and forEach), each in a request where it counts.
const CASES: Case[] = [
  { header: 'Content-Type', clean: () => 'application/json', request: (line) => dnsPost(`${line}Content-Length: 16\r\n`), works: validationFailed },
  { header: 'Content-Length', clean: () => '16', request: (line) => dnsPost(`Content-Type: application/json\r\n${line}`), works: validationFailed, htab: false },
  {
    header: 'Authorization',
    clean: () => 'Bearer nt_unknown',
    request: get('/api/limits'),
    works: (answer) => {
      assert.equal(statuses(answer), [401]);
      assert.match(answer, '"code":"invalid-api-key"');
    },
  },
  {
    header: 'Origin',
    clean: () => 'http://page.test',
    request: (line) => dnsPost(`Content-Type: application/json\r\n${line}Content-Length: 16\r\n`),
    works: (answer) => {
      validationFailed(answer);
      assert.match(answer, /\r\naccess-control-expose-headers: /i);
    },
  },
  { header: 'If-None-Match', clean: (ctx) => ctx.etag, request: get('/docs'), works: (answer) => assert.equal(statuses(answer), [304]) },
  {
    header: 'Accept',
    clean: () => 'application/x-ndjson',
    // A request that passes validation, so the answer's form shows nettools read the header.
    request: (line) => `POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${line}Content-Length: ${STREAM_BODY.length}\r\nConnection: close\r\n\r\n${STREAM_BODY}`,
    works: (answer) => {
      assert.equal(statuses(answer), [200]);
      assert.match(answer, /\r\ncontent-type: application\/x-ndjson\r\n/i);
    },
  },
  { header: 'X-Request-Id', clean: () => 'front-door-2', request: get('/health'), works: (answer) => assert.match(answer, /\r\nx-request-id: front-door-2\r\n/i) },
  {
    header: 'X-Forwarded-For',
    clean: () => '203.0.113.9',
    request: get('/api/limits'),
    works: (answer, seen, client) => {
      assert.equal(statuses(answer), [200]);
      assert.equal(
        seen.map((l) => l.client),
        [client], // the address nginx saw, not the one claimed
      );
    },
  },
];

function validationFailed(answer: string): void {
  assert.equal(statuses(answer), [400]);
  assert.match(answer, '"code":"validation-failed"');
}

const statuses = (answer: string) => [...answer.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
// nettools sets X-Request-Id on every answer; nginx's own refusals carry none.
const fromNettools = (answer: string) => /\r\nx-request-id: /i.test(answer);
const withByte = (value: string, c: string) => value.slice(0, Math.ceil(value.length / 2)) + c + value.slice(Math.ceil(value.length / 2));
// That nettools never sees a request has no event to wait for: a pause past its logging lag.
const settle = () => sleep(200);
// What nettools logged since `from`: one line per request it answered (or saw aborted).
const logged = (server: FrontDoor['server'], from: number): LogEntry[] =>
  server.logs.map((l) => JSON.parse(l) as LogEntry).filter((l) => l.msg === 'request').slice(from);
const loggedCount = (server: FrontDoor['server']) => logged(server, 0).length;
// nettools logs off the request path, so a line may follow its answer by a moment (more on a busy machine).
async function loggedOnce(server: FrontDoor['server'], from: number): Promise<LogEntry[]> {
  await waitFor('a request logged by nettools', () => logged(server, from).length > 0);
  return logged(server, from);
}

test.before(async (ctx) => {
  Object.assign(ctx, await startFrontDoor());
  const page = await exchangeTls(ctx.nginx.port, get('/docs')(''));
  ctx.etag = /\r\netag: ("[^"]+")\r\n/i.exec(page)?.[1] ?? '';
  assert.ok(ctx.etag, page.slice(0, 300));
  await loggedOnce(ctx.server, 0);
});

test.after(async (ctx) => {
  await ctx.stop?.();
});

CASES.forEach((c, i) => {
  // Each test its own source address, so that the rate limit of one never meets another.
  const address = (kind: number) => `127.0.7.${i * 4 + kind + 1}`;
  const send = (ctx: FrontDoor, value: string, localAddress: string, waitMs?: number) =>
    exchangeTls(ctx.nginx.port, Buffer.from(c.request(`${c.header}: ${value}\r\n`), 'latin1'), { localAddress, waitMs });

  test(`a control byte in ${c.header} gets nginx's 400 at once, and nettools never sees the request`, async (ctx) => {
    const before = loggedCount(ctx.server);
    const answers = await Promise.all(CONTROL.map((byte) => send(ctx, withByte(c.clean(ctx), byte), address(0), ANSWER_WITHIN_MS)));
    answers.forEach((answer, j) => {
      const why = `${hex(CONTROL[j] as string)}: ${answer.slice(0, 120) || `no answer within ${ANSWER_WITHIN_MS} ms`}`;
      assert.equal(statuses(answer), [400], why);
      assert.not.ok(fromNettools(answer), why);
    });
    await settle();
    assert.equal(logged(ctx.server, before), []);
  });

  test(`a clean ${c.header} still reaches nettools through nginx`, async (ctx) => {
    const before = loggedCount(ctx.server);
    const answer = await send(ctx, c.clean(ctx), address(1));
    c.works(answer, await loggedOnce(ctx.server, before), address(1));
  });

  if (c.htab !== false) {
    test(`an HTAB inside ${c.header} is not refused`, async (ctx) => {
      const before = loggedCount(ctx.server);
      const answer = await send(ctx, withByte(c.clean(ctx), '\t'), address(2));
      assert.ok(fromNettools(answer), answer.slice(0, 200));
      assert.is((await loggedOnce(ctx.server, before)).length, 1);
    });
  }
});

test('nginx itself refuses NUL and a bare CR in a header value', async (ctx) => {
  const raws = CASES.flatMap((c) => ['\x00', '\r'].map((byte) => c.request(`${c.header}: ${withByte(c.clean(ctx), byte)}\r\n`)));
  const answers = await Promise.all(raws.map((raw) => exchangeTls(ctx.nginx.port, Buffer.from(raw, 'latin1'), { waitMs: ANSWER_WITHIN_MS })));
  answers.forEach((answer, j) => assert.equal(statuses(answer), [400], JSON.stringify(raws[j]?.slice(0, 120))));
});

test('a bare LF in a header value ends the header line there', async ({ nginx }) => {
  const answer = await exchangeTls(nginx.port, get('/health')('X-Request-Id: front\ndoor\r\n'));
  assert.equal(statuses(answer), [200]);
  assert.match(answer, /\r\nx-request-id: front\r\n/i);
});

// Over HTTP/2 a header value carries any byte but NUL, CR and LF (nginx checks those): the map must hold there too.
test("over HTTP/2 too, a control byte in a header nettools reads gets nginx's 400 at once", async (ctx) => {
  const session = http2.connect(`https://127.0.0.1:${ctx.nginx.port}`, { rejectUnauthorized: false });
  session.on('error', () => {});
  const status = (header: string) =>
    new Promise<number | string>((resolve) => {
      const stream = session.request({ ':path': '/h2-control-byte', [header.toLowerCase()]: 'a\x01b' });
      const timer = setTimeout(() => resolve(`no answer within ${ANSWER_WITHIN_MS} ms`), ANSWER_WITHIN_MS);
      stream.on('response', (h) => resolve(Number(h[':status'])));
      stream.on('error', (err) => resolve(err.message));
      stream.on('close', () => clearTimeout(timer));
      stream.end();
    });
  const headers = CASES.map((c) => c.header).filter((h) => h !== 'Content-Length');
  const answers = await Promise.all(headers.map(status));
  session.destroy();
  assert.equal(answers, headers.map(() => 400));
  await settle();
  assert.not.ok(ctx.server.logs.some((l) => l.includes('/h2-control-byte')));
});

test.run();

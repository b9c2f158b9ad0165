import http from 'node:http';
import { performance } from 'node:perf_hooks';

// The load side of the streams bench, in a process of its own so its work is not the server's: N streamed
// pings held open at once, each read line by line as it arrives. Prints one JSON line: what arrived, how
// late, what was missing. argv: url streams count intervalMs [hosts [steady [fromIntervals [timeoutMs]]]]
// hosts: the targets, comma-separated, taken in turn (127.0.0.1,::1 unless given).
// steady: the streams open spread evenly over one interval instead of all at once, and the client marks
// on stdout ({"mark":"start"}, then {"mark":"end","events":N}) a window in which every stream is open and
// past its opening, so the runner can read the server's CPU over the steady state alone.
// fromIntervals: when the window opens, in intervals from the first opening (3 unless given).
// timeoutMs: each ping's, when given (the server's default, 1000 ms, otherwise).
// A reply is late when it arrives more than 50 ms after its due time: the stream's earliest reply, taken
// back to seq 0 (arrival - seq x intervalMs, least over the stream), plus seq x intervalMs. On loopback the
// round trip is microseconds, so lateness is the server's or the client's.

const [url = '', streamsArg = '0', countArg = '0', intervalArg = '0', hostsArg = '127.0.0.1,::1', steadyArg = '', fromArg = '3', timeoutArg = ''] = process.argv.slice(2);
const STREAMS = Number(streamsArg);
const COUNT = Number(countArg);
const INTERVAL = Number(intervalArg);
const HOSTS = hostsArg.split(',');
const STEADY = steadyArg === 'steady';
const LATE_MS = 50;
// The steady window: by default from two intervals after the last stream opened (its first replies and
// the other openings' admission behind it) to two intervals before the first stream's last echo (the
// summaries and closes after it).
const WINDOW = { fromMs: Number(fromArg) * INTERVAL, toMs: (COUNT - 2) * INTERVAL };
let eventsSeen = 0;

interface StreamTally {
  events: number;
  replies: number;
  late: number;
  worstLateMs: number;
  outOfOrder: boolean;
  summary: boolean;
  problem: string | null;
  status: number;
}

function oneStream(host: string): Promise<StreamTally> {
  const tally: StreamTally = { events: 0, replies: 0, late: 0, worstLateMs: 0, outOfOrder: false, summary: false, problem: null, status: 0 };
  const offsets: number[] = []; // arrival - seq x intervalMs, per reply
  let lastSeq = -1;
  const line = (text: string, at: number): void => {
    const { event, data } = JSON.parse(text) as { event: string; data: { seq: number; code?: string } };
    tally.events++;
    eventsSeen++;
    if (event === 'summary') tally.summary = true;
    if (event === 'problem') tally.problem = data.code ?? 'problem';
    if (event !== 'reply') return;
    tally.replies++;
    if (data.seq <= lastSeq) tally.outOfOrder = true;
    lastSeq = data.seq;
    offsets.push(at - data.seq * INTERVAL);
  };
  const judge = (): StreamTally => {
    const due = Math.min(...offsets);
    for (const offset of offsets) {
      const lateMs = offset - due;
      if (lateMs > tally.worstLateMs) tally.worstLateMs = lateMs;
      if (lateMs > LATE_MS) tally.late++;
    }
    return tally;
  };
  return new Promise((resolve) => {
    const body = JSON.stringify({ host, count: COUNT, intervalMs: INTERVAL, ...(timeoutArg === '' ? {} : { timeoutMs: Number(timeoutArg) }) });
    const req = http.request(url + '/api/tools/ping', { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' } }, (res) => {
      tally.status = res.statusCode ?? 0;
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          line(buffered.slice(0, nl), at);
          buffered = buffered.slice(nl + 1);
        }
      });
      res.on('end', () => resolve(judge()));
      res.on('error', () => resolve(judge()));
    });
    req.on('error', () => resolve(judge()));
    req.end(body);
  });
}

function markWindow(): void {
  let atStart = 0;
  setTimeout(() => {
    atStart = eventsSeen;
    process.stdout.write(JSON.stringify({ mark: 'start' }) + '\n');
  }, WINDOW.fromMs);
  setTimeout(() => process.stdout.write(JSON.stringify({ mark: 'end', events: eventsSeen - atStart }) + '\n'), WINDOW.toMs);
}

// Stream i opens at i x interval / N in the steady mode, at once otherwise.
function opened(i: number): Promise<StreamTally> {
  const host = HOSTS[i % HOSTS.length] as string;
  if (!STEADY) return oneStream(host);
  return new Promise((resolve) => setTimeout(() => resolve(oneStream(host)), (i * INTERVAL) / STREAMS));
}

async function main(): Promise<void> {
  // By default half to 127.0.0.1, half to ::1: each family has its own ICMP socket and sequence space.
  if (STEADY) markWindow();
  const tallies = await Promise.all(Array.from({ length: STREAMS }, (_, i) => opened(i)));
  const whole = tallies.filter((t) => t.status === 200 && t.summary && t.replies === COUNT && !t.outOfOrder).length;
  const sum = (f: (t: StreamTally) => number) => tallies.reduce((a, t) => a + f(t), 0);
  const problems: Record<string, number> = {};
  for (const t of tallies) if (t.problem !== null) problems[t.problem] = (problems[t.problem] ?? 0) + 1;
  const statuses: Record<string, number> = {};
  for (const t of tallies) statuses[t.status] = (statuses[t.status] ?? 0) + 1;
  process.stdout.write(
    JSON.stringify({
      streams: STREAMS,
      whole,
      events: sum((t) => t.events),
      replies: sum((t) => t.replies),
      missingReplies: STREAMS * COUNT - sum((t) => t.replies),
      outOfOrder: tallies.filter((t) => t.outOfOrder).length,
      late: sum((t) => t.late),
      worstLateMs: Math.round(Math.max(0, ...tallies.map((t) => t.worstLateMs)) * 10) / 10,
      problems,
      statuses,
    }) + '\n',
  );
}

void main();

// Parsers for the text iputils `ping` and `fping -C` print. Used by the baseline (which answers the
// ping endpoint from iputils' output, the usual way) and by the RTT reference measurements.

export interface IputilsReply {
  seq: number; // as printed: 1-based
  ttl: number;
  rttMs: number;
  bytes: number;
  duplicate: boolean;
}

export interface IputilsError {
  seq: number;
  from: string;
  reason: string;
}

export interface IputilsOutput {
  replies: IputilsReply[];
  errors: IputilsError[];
  transmitted: number;
  received: number;
  timeMs: number | null; // iputils' own elapsed time for the run
  rtt: { minMs: number; avgMs: number; maxMs: number; mdevMs: number } | null;
}

const REPLY = /^(\d+) bytes from [^:]+: icmp_seq=(\d+) ttl=(\d+) time=([\d.]+) ms( \(DUP!\))?$/;
const ERROR = /^From (\S+) icmp_seq=(\d+) (.+)$/;
const TOTALS = /^(\d+) packets transmitted, (\d+) received.*?(?:, time (\d+)ms)?$/;
const RTT = /^rtt min\/avg\/max\/mdev = ([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+) ms$/;

// null when the text has no statistics block (ping failed before sending, or was killed).
export function parseIputilsPing(text: string): IputilsOutput | null {
  const out: IputilsOutput = { replies: [], errors: [], transmitted: 0, received: 0, timeMs: null, rtt: null };
  let sawTotals = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = REPLY.exec(line))) {
      out.replies.push({ bytes: Number(m[1]), seq: Number(m[2]), ttl: Number(m[3]), rttMs: Number(m[4]), duplicate: m[5] !== undefined });
    } else if ((m = ERROR.exec(line))) {
      out.errors.push({ from: m[1] as string, seq: Number(m[2]), reason: m[3] as string });
    } else if ((m = TOTALS.exec(line))) {
      sawTotals = true;
      out.transmitted = Number(m[1]);
      out.received = Number(m[2]);
      out.timeMs = m[3] === undefined ? null : Number(m[3]);
    } else if ((m = RTT.exec(line))) {
      out.rtt = { minMs: Number(m[1]), avgMs: Number(m[2]), maxMs: Number(m[3]), mdevMs: Number(m[4]) };
    }
  }
  return sawTotals ? out : null;
}

// `fping -C N -q` prints "<target> : 0.04 0.05 - 0.04" on stderr; "-" is a lost echo.
export function parseFpingCounts(text: string, target: string): { rttMs: number[]; lost: number } | null {
  for (const raw of text.split('\n')) {
    const [name, values] = raw.split(' : ');
    if (name?.trim() !== target || values === undefined) continue;
    const rttMs: number[] = [];
    let lost = 0;
    for (const v of values.trim().split(/\s+/)) {
      if (v === '-') lost++;
      else if (/^\d+(\.\d+)?$/.test(v)) rttMs.push(Number(v));
      else return null;
    }
    return { rttMs, lost };
  }
  return null;
}

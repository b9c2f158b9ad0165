import { spawn, type ChildProcess } from 'node:child_process';

export interface EchoSniffer {
  size: number; // send the echoes to count with this payload size
  ready: Promise<void>; // counting from here on
  // The echoes seen, once the sniffer has read every packet that reached it before the call. Rejects if
  // its socket ever dropped one: a count it cannot vouch for.
  settled(): Promise<number>;
  stop(): void;
  pid: number; // the sniffing process, for a test that holds it back (SIGSTOP) as a loaded machine does
}

// Echo requests to 127.0.0.1 of the payload size `size` it picked, counted by a raw ICMP socket (root).
// The size is picked at random: echoes are told apart by size alone, and another test run on the same
// machine (a second CI job, a second checkout) must not count as this one. A tool whose echoes have a
// fixed size (mtr's) is told apart by a destination of its own instead: another loopback address, picked
// at random by the test.
// On a loaded machine the sniffer runs late, so a count read when the test thinks the echoes are out may
// be short of them, and a socket that fills while the sniffer waits for the CPU loses packets unseen.
// Hence: a kernel filter that lets only these echoes in, a receive buffer with room for thousands, the
// socket's drop counter watched, and `settled()`, which sends a marked echo of its own and answers once
// it has read it back: every echo that reached the socket before it has been counted by then.
export function sniffEchoes(only: { destination?: string; size?: number } = {}): EchoSniffer {
  const size = only.size ?? 1000 + Math.floor(Math.random() * 400);
  const destination = only.destination ?? '127.0.0.1';
  if (!/^127\.\d+\.\d+\.\d+$/.test(destination)) throw new Error(`the echo sniffer counts loopback echoes only, not ${destination}`);
  const child: ChildProcess = spawn('python3', ['-c', script(size, destination)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let seen = 0;
  let dropped = 0;
  let ready: () => void = () => {};
  const readyP = new Promise<void>((r) => (ready = r));
  let marks = 0;
  const waiting = new Map<number, { resolve(): void; reject(err: Error): void }>();
  let exited = false;
  child.on('exit', (code, signal) => {
    exited = true;
    for (const w of waiting.values()) w.reject(new Error(`the echo sniffer ended (${signal ?? code}) before it read its mark`));
  });
  let pending = '';
  child.stdout?.on('data', (c: Buffer) => {
    pending += c.toString();
    const lines = pending.split('\n');
    pending = lines.pop() as string;
    for (const line of lines) {
      const [word, n] = line.split(' ');
      if (word === 'ready') ready();
      if (word === 'echo') seen++;
      if (word === 'dropped') dropped = Number(n);
      if (word === 'mark') waiting.get(Number(n))?.resolve();
    }
  });
  const settled = async (): Promise<number> => {
    const mark = ++marks;
    try {
      await new Promise<void>((resolve, reject) => {
        if (exited) return reject(new Error('the echo sniffer has ended'));
        waiting.set(mark, { resolve, reject });
        child.stdin?.write(`${mark}\n`);
      });
    } finally {
      waiting.delete(mark);
    }
    if (dropped > 0) throw new Error(`the echo sniffer's socket dropped ${dropped} packets: its count is short`);
    return seen;
  };
  return { size, ready: readyP, settled, stop: () => void child.kill('SIGKILL'), pid: child.pid as number };
}

function script(size: number, destination: string): string {
  const octets = destination.split('.').map(Number);
  const asNumber = octets.reduce((n, o) => n * 256 + o, 0);
  return `
import ctypes, os, select, socket, struct
SIZE = ${size}
DESTINATION = '${destination}'
MARK = b'nettools-sniffer-mark'
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
s.setsockopt(socket.SOL_SOCKET, 33, 16 << 20)  # SO_RCVBUFFORCE: root may pass rmem_max
s.setsockopt(socket.SOL_SOCKET, 40, 1)  # SO_RXQ_OVFL: each packet says how many the socket dropped so far
# Classic BPF on the IP packet: destination DESTINATION, ICMP type 8, ICMP length 8 + SIZE; else dropped
# by the kernel before it takes room in the buffer (and without counting as a drop).
code = [(0x20, 0, 0, 16), (0x15, 0, 7, ${asNumber}), (0xb1, 0, 0, 0), (0x50, 0, 0, 0), (0x15, 0, 4, 8),
        (0x28, 0, 0, 2), (0x1c, 0, 0, 0), (0x15, 0, 1, 8 + SIZE), (0x06, 0, 0, 0xffff), (0x06, 0, 0, 0)]
insns = ctypes.create_string_buffer(b''.join(struct.pack('HBBI', *i) for i in code))
s.setsockopt(socket.SOL_SOCKET, 26, struct.pack('HL', len(code), ctypes.addressof(insns)))  # SO_ATTACH_FILTER

def checksum(b):
    b += b'\\0' * (len(b) % 2)
    total = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    total = (total >> 16) + (total & 0xffff)
    return ~(total + (total >> 16)) & 0xffff

def send_mark(n):
    payload = (MARK + b' %d ' % n).ljust(SIZE, b'.')
    header = struct.pack('!BBHHH', 8, 0, 0, os.getpid() & 0xffff, n & 0xffff)
    s.sendto(struct.pack('!BBHHH', 8, 0, checksum(header + payload), os.getpid() & 0xffff, n & 0xffff) + payload, (DESTINATION, 0))

print('ready', flush=True)
dropped = 0
asked = b''
while True:
    readable, _, _ = select.select([s, 0], [], [])
    if 0 in readable:
        more = os.read(0, 4096)
        if more == b'':
            break
        *lines, asked = (asked + more).split(b'\\n')
        for line in lines:
            send_mark(int(line))
    if s not in readable:
        continue
    data, ancillary, _, _ = s.recvmsg(65535, socket.CMSG_SPACE(4))
    for level, kind, value in ancillary:
        if level == socket.SOL_SOCKET and kind == 40 and struct.unpack('I', value)[0] != dropped:
            dropped = struct.unpack('I', value)[0]
            print('dropped', dropped, flush=True)
    ihl = (data[0] & 15) * 4
    if data[ihl] != 8 or len(data) - ihl != 8 + SIZE or data[16:20] != socket.inet_aton(DESTINATION):
        continue
    body = data[ihl + 8:]
    if body.startswith(MARK):
        print('mark', int(body.split(b' ')[1]), flush=True)
    else:
        print('echo', flush=True)
`;
}

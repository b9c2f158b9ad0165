import { spawn, type ChildProcess } from 'node:child_process';

// Echo requests to 127.0.0.1 of the payload size `size` it picked, counted by a raw ICMP socket (root).
// The size is picked at random: echoes are told apart by size alone, and another test run on the same
// machine (a second CI job, a second checkout) must not count as this one. Send the echoes with `size`.
export function sniffEchoes(): { size: number; count(): number; stop(): void; ready: Promise<void> } {
  const size = 1000 + Math.floor(Math.random() * 400);
  const script = `
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
print('ready', flush=True)
while True:
    data, addr = s.recvfrom(65535)
    ihl = (data[0] & 15) * 4
    if data[ihl] == 8 and len(data) - ihl == ${8 + size} and data[16:20] == bytes([127, 0, 0, 1]):
        print('echo', flush=True)
`;
  const child: ChildProcess = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = 0;
  let ready: () => void = () => {};
  const readyP = new Promise<void>((r) => (ready = r));
  child.stdout?.on('data', (c: Buffer) => {
    for (const line of c.toString().split('\n')) {
      if (line === 'ready') ready();
      if (line === 'echo') seen++;
    }
  });
  return { size, count: () => seen, stop: () => void child.kill('SIGKILL'), ready: readyP };
}

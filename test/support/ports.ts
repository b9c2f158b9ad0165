import dgram from 'node:dgram';
import net from 'node:net';

function udpPort(address: string): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket(address.includes(':') ? 'udp6' : 'udp4');
    s.once('error', reject);
    s.bind(0, address, () => resolve({ port: s.address().port, close: () => new Promise((r) => s.close(() => r())) }));
  });
}

function tcpFree(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ host: address, port, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

// A port free for both UDP and TCP on `address` (DNS servers want both), found by binding port 0.
export async function freeDnsPort(address: string): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const udp = await udpPort(address);
    const ok = await tcpFree(address, udp.port);
    await udp.close();
    if (ok) return udp.port;
  }
  throw new Error(`no port free for both UDP and TCP on ${address}`);
}

// A TCP port free on `address`, found by binding port 0 (another process may take it before use;
// tests then fail loudly rather than talk to the wrong server).
export function freeTcpPort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen({ host: address, port: 0, exclusive: true }, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// A free TCP port below the kernel's ephemeral range (32768 and up), for a server a test restarts on the
// same port: Linux refuses to bind a port of the ephemeral range again while the connections the last
// server closed wait out TIME_WAIT (a minute), as it does not for the fixed ports servers are given.
export async function freeFixedTcpPort(address: string): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 10000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen({ host: address, port, exclusive: true }, () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

// Whether something accepts TCP connections on `address`:`port` now.
export function accepts(port: number, address = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: address, port }, () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

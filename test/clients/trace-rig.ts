// A real server that traces through a routed path of namespaces (test/support/trace-path.ts), for the
// client and CLI tests: it runs in the path's source namespace, and this process reaches it at `base`,
// a loopback port whose connections are relayed over a Unix socket into that namespace. Nothing is added
// to this namespace's network, and only addresses inside the path are probed.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTracePath, type TracePath } from '../support/trace-path';

export interface TraceRig {
  path: TracePath;
  base: string;
  stop(): Promise<void>;
}

const CHILD = join(__dirname, 'trace-server-child.js');
const ENV = { NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000' };

function relay(socket: string): Promise<net.Server> {
  const server = net.createServer((conn) => {
    const inner = net.connect(socket);
    conn.pipe(inner).pipe(conn);
    conn.on('error', () => inner.destroy()).on('close', () => inner.destroy());
    inner.on('error', () => conn.destroy()).on('close', () => conn.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// A fresh path drops the first IPv6 packets while its neighbours are still being found: wait until one
// echo from the source reaches the destination over each family before any test traces.
function awaitForwarding(p: TracePath): void {
  for (const [family, target] of [['-4', p.destination.v4], ['-6', p.destination.v6]] as const) {
    for (let attempt = 1; ; attempt++) {
      try {
        p.exec(p.source.ns, ['ping', family, '-n', '-q', '-c', '1', '-W', '1', target]);
        break;
      } catch (err) {
        if (attempt === 10) throw err;
      }
    }
  }
}

export async function startTraceRig(): Promise<TraceRig> {
  const path = createTracePath(3, 'nct');
  try {
    awaitForwarding(path);
  } catch (err) {
    path.destroy();
    throw err;
  }
  const dir = mkdtempSync(join(tmpdir(), 'nt-trace-'));
  const socket = join(dir, 'server.sock');
  const child = path.spawn(path.source.ns, [process.execPath, CHILD, JSON.stringify({ socket, env: ENV })]);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout!.on('data', (c: Buffer) => (out += c, out.includes('"ready"') && resolve()));
      child.stderr!.on('data', (c: Buffer) => void (err += c));
      child.on('exit', (code) => reject(new Error(`trace server exited ${code}: ${err}`)));
    });
  } catch (e) {
    path.destroy();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const outer = await relay(socket);
  const port = (outer.address() as net.AddressInfo).port;
  return {
    path,
    base: `http://127.0.0.1:${port}`,
    async stop() {
      outer.close();
      child.kill('SIGTERM');
      await exited;
      path.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

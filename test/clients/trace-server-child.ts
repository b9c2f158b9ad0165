// Runs inside a trace path's source namespace (see trace-rig.ts): the real server on this namespace's
// loopback, reachable from the test's own namespace through a Unix socket (a filesystem path, which
// network namespaces do not separate). Prints one line once both listen; stops on SIGTERM.
import net from 'node:net';
import { startServer } from '../support/server';

async function main(): Promise<void> {
  const { socket, env } = JSON.parse(process.argv[2] as string) as { socket: string; env: Record<string, string> };
  const server = await startServer(env);
  const bridge = net.createServer((conn) => {
    const upstream = net.connect(server.port, '127.0.0.1');
    conn.pipe(upstream).pipe(conn);
    // Either side going away (a client's abort) closes the other, as a direct connection would.
    conn.on('error', () => upstream.destroy()).on('close', () => upstream.destroy());
    upstream.on('error', () => conn.destroy()).on('close', () => conn.destroy());
  });
  await new Promise<void>((resolve) => bridge.listen(socket, resolve));
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  process.once('SIGTERM', () => {
    bridge.close();
    void server.stop().then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

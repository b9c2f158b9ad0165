import { problemJson } from '../../src/http/problem-json';
import { loadNativeUws, type HttpRequest, type HttpResponse } from '../../src/http/uws';

// Bare uWebSockets.js (the native binary, loaded as the server loads it) that reads any POST body to the
// end and answers the validation scenario's problem body. The ceilings differ only in the head they
// write. Environment: PORT, HOST.

export const BODY = problemJson('validation-failed', 'the request body does not match the schema; see errors', {
  errors: [{ pointer: '/count', message: 'must be >= 1' }],
});

// `head` is the status line and header lines as one string, as nettools hands them to uWS.
export function serveBare(name: string, head: () => string): void {
  const uws = loadNativeUws();
  const app = uws.App();
  const host = process.env['HOST'] ?? '127.0.0.1';
  const port = Number(process.env['PORT'] ?? '0');

  app.any('/*', (res: HttpResponse, _req: HttpRequest) => {
    let done = false;
    res.onAborted(() => (done = true));
    res.onData((_chunk, isLast) => {
      if (!isLast || done) return;
      done = true;
      res.cork(() => res.writeStatus(head()).end(BODY));
    });
  });

  app.listen(host, port, (socket) => {
    if (!socket) {
      process.stderr.write(`${name}: cannot listen on ${host}:${port}\n`);
      process.exit(2);
    }
    process.stdout.write(JSON.stringify({ msg: 'listening', port: uws.us_socket_local_port(socket as never) }) + '\n');
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        uws.us_listen_socket_close(socket);
        process.exit(0);
      });
    }
  });
}

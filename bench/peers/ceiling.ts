import { problem } from '../../src/http/problems';
import { loadNativeUws, type HttpRequest, type HttpResponse } from '../../src/http/uws';

// The ceiling of the HTTP path on this machine: bare uWebSockets.js (the native binary, loaded as
// the server loads it) that reads any POST body to the end and answers the same small problem body
// the validation scenario gets. Nothing a real server must do (routing, JSON, schemas) happens here.
//
// Environment: PORT, HOST.

const BODY = JSON.stringify(
  problem('validation-failed', 'the request body does not match the schema; see errors', {
    errors: [{ pointer: '/count', message: 'must be >= 1' }],
  }),
);

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
    res.cork(() => {
      res.writeStatus('400 Bad Request').writeHeader('Content-Type', 'application/problem+json').end(BODY);
    });
  });
});

app.listen(host, port, (socket) => {
  if (!socket) {
    process.stderr.write(`ceiling: cannot listen on ${host}:${port}\n`);
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

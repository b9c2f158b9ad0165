// The image's HEALTHCHECK: exits 0 when this container's nettools answers GET /health with 200. Node
// alone (the image has no curl), on the port and address the server was given; an address of every
// interface is asked on loopback.
'use strict';
const host = process.env.HOST && !['0.0.0.0', '::'].includes(process.env.HOST) ? process.env.HOST : '127.0.0.1';
const url = `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT || 8080}/health`;
fetch(url, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.status === 200 ? 0 : 1),
  () => process.exit(1),
);

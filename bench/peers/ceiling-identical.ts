import { randomUUID } from 'node:crypto';
import { serveBare } from './bare-uws';

// The ceiling nettools is judged against: bare uWS writing responses byte-identical to nettools' answer
// in the validation scenario (run with the bench's rate limit of 1000000/1s): the same status line, the
// same headers in the same order with a fresh request id and a live reset time, the same body. What
// nettools spends beyond this is its own work: reading the request, parsing, validating, deciding.
const FIXED =
  '\r\nAccess-Control-Allow-Origin: *' +
  '\r\nRateLimit-Policy: "default";q=1000000;w=1' +
  '\r\nRateLimit: "default";r=999999;t=1' +
  '\r\nX-RateLimit-Limit: 1000000' +
  '\r\nX-RateLimit-Remaining: 999999' +
  '\r\nX-RateLimit-Reset: ';

serveBare('ceiling-identical', () => `400 Bad Request\r\nContent-Type: application/problem+json\r\nX-Request-Id: ${randomUUID()}${FIXED}${Math.ceil((Date.now() + 1) / 1000)}`);

import { randomFillSync } from 'node:crypto';

// A caller's own id is kept when it is short and plain (so it can be searched in logs); else a fresh one.
const PLAIN_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestId(incoming: string): string {
  return incoming !== '' && PLAIN_ID.test(incoming) ? incoming : freshRequestId();
}

// Fresh ids are random UUIDs (RFC 9562, version 4), made a batch at a time as one string that each
// request takes a slice of. randomUUID() joins each id from some twenty short-lived strings, and on the
// request path every byte allocated costs CPU time of its own (bench/README.md, "Bytes allocated per
// request"); a slice is one small object.
const BATCH = 256;
const UUID_LENGTH = 36;
const random = new Uint8Array(16 * BATCH);
const text = Buffer.alloc(UUID_LENGTH * BATCH);
const HEX = Buffer.from('0123456789abcdef', 'latin1');
let batch = '';
let taken = BATCH;

export function freshRequestId(): string {
  if (taken === BATCH) {
    batch = uuidBatch();
    taken = 0;
  }
  const at = UUID_LENGTH * taken++;
  return batch.slice(at, at + UUID_LENGTH);
}

function uuidBatch(): string {
  randomFillSync(random);
  let out = 0;
  for (let i = 0; i < BATCH; i++) {
    for (let j = 0; j < 16; j++) {
      let byte = random[16 * i + j] as number;
      if (j === 6) byte = (byte & 0x0f) | 0x40; // version 4
      else if (j === 8) byte = (byte & 0x3f) | 0x80; // the RFC's variant
      if (j === 4 || j === 6 || j === 8 || j === 10) text[out++] = 0x2d; // '-'
      text[out++] = HEX[byte >> 4] as number;
      text[out++] = HEX[byte & 0x0f] as number;
    }
  }
  return text.toString('latin1', 0, out);
}

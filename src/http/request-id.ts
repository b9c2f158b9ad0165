import { randomUUID } from 'node:crypto';

// A caller's own id is kept when it is short and plain (so it can be searched in logs); else a fresh one.
const PLAIN_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestId(incoming: string): string {
  return incoming !== '' && PLAIN_ID.test(incoming) ? incoming : randomUUID();
}

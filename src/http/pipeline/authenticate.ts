import { readCredential } from '../../keys/api-key';
import type { KeyLookup, KeyRing } from '../../keys/key-ring';
import { DEFAULT_PLAN } from '../../ratelimit/plans';
import type { HttpRequest } from '../uws';

// Whose budget a request spends: its address under the `default` policy, or an API key under its plan
// wherever the request comes from.
export type Principal = { kind: 'anonymous'; key: string; plan: string } | { kind: 'key'; key: string; plan: string; keyId: string };

export type AuthRefusal = { code: 'invalid-api-key'; reason: 'malformed' | 'unknown' | 'revoked' | 'expired'; detail: string };

export const NONE: readonly string[] = [];

let authorizationCount = 0;
const countAuthorization = (name: string): void => {
  if (name === 'authorization') authorizationCount++;
};

// Every Authorization line, read while `req` is valid. Only a request that sends one pays for the walk
// over its headers (needed to see a second line); a second line makes the request malformed whatever it
// says, so only the first one's text is kept.
export function authorizationLines(req: HttpRequest): readonly string[] {
  const first = req.getHeader('authorization');
  if (first === '') return NONE;
  authorizationCount = 0;
  req.forEach(countAuthorization);
  return authorizationCount === 1 ? [first] : [first, ...new Array<string>(authorizationCount - 1).fill('')];
}

// With keys off (no ring) the header is ignored. A bad key is refused, never treated as anonymous.
export function authenticate(clientKey: string, authorization: readonly string[], keys: KeyRing | null): Principal | AuthRefusal {
  if (keys === null || authorization.length === 0) return { kind: 'anonymous', key: clientKey, plan: DEFAULT_PLAN };
  const line = authorization.length === 1 ? (authorization[0] as string) : undefined;
  const found = (line === undefined ? undefined : keys.recall(line)) ?? lookupCredential(authorization, keys, line);
  if ('code' in found) return found;
  if (found.status === 'valid') return { kind: 'key', key: found.bucketKey, plan: found.plan.name, keyId: found.record.id };
  const detail = { unknown: 'unknown: no such key', revoked: `revoked: key ${found.id} was revoked`, expired: `expired: key ${found.id} has expired` }[found.status];
  return { code: 'invalid-api-key', reason: found.status, detail };
}

function lookupCredential(authorization: readonly string[], keys: KeyRing, line: string | undefined): KeyLookup | AuthRefusal {
  const credential = readCredential(authorization);
  if (credential.kind === 'key') return keys.lookup(credential.key, Date.now(), line);
  const why = credential.kind === 'malformed' ? credential.why : 'no key';
  return { code: 'invalid-api-key', reason: 'malformed', detail: `malformed: ${why}` };
}

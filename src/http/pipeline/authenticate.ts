import { readCredential } from '../../keys/api-key';
import type { KeyRing } from '../../keys/key-ring';
import { DEFAULT_PLAN } from '../../ratelimit/plans';
import type { HttpRequest } from '../uws';

// Whose budget a request spends: its address under the `default` policy, or an API key under its plan
// wherever the request comes from.
export type Principal = { kind: 'anonymous'; key: string; plan: string } | { kind: 'key'; key: string; plan: string; keyId: string };

export type AuthRefusal = { code: 'invalid-api-key'; reason: 'malformed' | 'unknown' | 'revoked' | 'expired'; detail: string };

export const NONE: readonly string[] = [];

// Every Authorization line, read while `req` is valid. Only a request that sends one pays for the walk
// over its headers (needed to see a second line).
export function authorizationLines(req: HttpRequest): readonly string[] {
  if (req.getHeader('authorization') === '') return NONE;
  const lines: string[] = [];
  req.forEach((name, value) => {
    if (name === 'authorization') lines.push(value);
  });
  return lines;
}

// With keys off (no ring) the header is ignored. A bad key is refused, never treated as anonymous.
export function authenticate(clientKey: string, authorization: readonly string[], keys: KeyRing | null): Principal | AuthRefusal {
  const anonymous: Principal = { kind: 'anonymous', key: clientKey, plan: DEFAULT_PLAN };
  if (keys === null) return anonymous;
  const credential = readCredential(authorization);
  if (credential.kind === 'none') return anonymous;
  if (credential.kind === 'malformed') return { code: 'invalid-api-key', reason: 'malformed', detail: `malformed: ${credential.why}` };
  const found = keys.lookup(credential.key);
  if (found.status === 'valid') return { kind: 'key', key: `key:${found.record.id}`, plan: found.plan.name, keyId: found.record.id };
  const detail = { unknown: 'unknown: no such key', revoked: `revoked: key ${found.id} was revoked`, expired: `expired: key ${found.id} has expired` }[found.status];
  return { code: 'invalid-api-key', reason: found.status, detail };
}

import type { IcmpErrorCode } from './types';

// Engine failures as values: a message plus a stable code callers switch on.
export class IcmpError extends Error {
  readonly code: IcmpErrorCode;

  constructor(code: IcmpErrorCode, message: string) {
    super(message);
    this.name = 'IcmpError';
    this.code = code;
  }
}

const KNOWN: ReadonlySet<string> = new Set<IcmpErrorCode>([
  'ICMP_NO_SOCKET',
  'ICMP_BAD_ADDRESS',
  'ICMP_BAD_OPTIONS',
  'ICMP_SEQ_EXHAUSTED',
  'ICMP_ENGINE_CLOSED',
  'ICMP_NO_EVENT_LOOP',
  'ICMP_ABORTED',
]);

// Native errors arrive as Error objects with a `code` property; anything else is a bug, rethrown as is.
export function fromNative(err: unknown): unknown {
  if (err instanceof Error) {
    const code: unknown = (err as Error & { code?: unknown }).code;
    if (typeof code === 'string' && KNOWN.has(code)) return new IcmpError(code as IcmpErrorCode, err.message);
  }
  return err;
}

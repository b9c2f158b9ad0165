// Engine errors carry a stable code: the native side's (native/icmp/icmp_status.cc), or `aborted` from the wrapper.
export type IcmpErrorCode =
  | 'no-socket'
  | 'invalid-address'
  | 'invalid-options'
  | 'seq-exhausted'
  | 'engine-closed'
  | 'no-event-loop'
  | 'random-unavailable'
  | 'aborted';

// Engine failures as values: a message plus a stable code callers switch on.
export class IcmpError extends Error {
  readonly code: IcmpErrorCode;

  constructor(code: IcmpErrorCode, message: string) {
    super(message);
    this.name = 'IcmpError';
    this.code = code;
  }
}

// Every code, so the compiler notices one missing here when the type gains it.
const KNOWN: Readonly<Record<IcmpErrorCode, true>> = {
  'no-socket': true,
  'invalid-address': true,
  'invalid-options': true,
  'seq-exhausted': true,
  'engine-closed': true,
  'no-event-loop': true,
  'random-unavailable': true,
  aborted: true,
};

// Native errors arrive as Error objects with a `code` property; anything else is a bug, rethrown as is.
export function fromNative(err: unknown): unknown {
  if (err instanceof Error) {
    const code: unknown = (err as Error & { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(KNOWN, code)) return new IcmpError(code as IcmpErrorCode, err.message);
  }
  return err;
}

// Engine errors carry a stable code: the native side's (native/icmp/icmp_status.cc), or `aborted` from the wrapper.
export type IcmpErrorCode =
  | 'no-socket'
  | 'invalid-address'
  | 'invalid-options'
  | 'seq-exhausted'
  | 'engine-closed'
  | 'no-event-loop'
  | 'random-unavailable'
  | 'aborted'
  // A bug of ours in a session's call back (a result that did not read, a callback that threw): the
  // session ended there, and `cause` is what was thrown, for the request's fault funnel.
  | 'fault';

// Engine failures as values: a message plus a stable code callers switch on.
export class IcmpError extends Error {
  readonly code: IcmpErrorCode;

  constructor(code: IcmpErrorCode, message: string, options?: { cause: unknown }) {
    super(message, options);
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
  fault: true,
};

// Native errors arrive as Error objects with a `code` property; anything else is a bug, rethrown as is.
export function fromNative(err: unknown): unknown {
  if (err instanceof Error) {
    const code: unknown = (err as Error & { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(KNOWN, code)) return new IcmpError(code as IcmpErrorCode, err.message);
  }
  return err;
}

// What a session's call back threw, as the session's error.
export function sessionFault(err: unknown): IcmpError {
  return new IcmpError('fault', `a call back of the ICMP engine threw: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

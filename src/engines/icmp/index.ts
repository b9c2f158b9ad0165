export { openPinger } from './pinger';
export { IcmpError, type IcmpErrorCode } from './errors';
export { summarize, packetStats, rttStats, roundMicros } from './stats';
export { pingLimits } from './limits';
export type { PingLimits, Range } from './native';
export type * from './types';

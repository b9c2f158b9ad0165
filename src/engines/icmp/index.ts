export { openPinger } from './pinger';
export { IcmpError } from './errors';
export { summarize, packetStats, rttStats, roundMicros } from './stats';
export { checkPingOptions } from './validate';
export type * from './types';

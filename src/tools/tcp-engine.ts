// Opening the worker's TCP connect engine, or the one sentence that says why this server cannot.
import { openTcpConnector, type TcpConnector } from '../engines/tcp/connector';

export function openTcpEngine(): { connector: TcpConnector } | { unavailable: string } {
  try {
    return { connector: openTcpConnector() };
  } catch (err) {
    return { unavailable: `the TCP engine could not start: ${err instanceof Error ? err.message : String(err)}` };
  }
}

// Runs in a worker thread: opens its own TCP engine and starts an attempt that waits (the address in
// workerData drops SYNs), then tells the parent, which terminates the thread mid-attempt.
import { parentPort, workerData } from 'node:worker_threads';
import { openTcpConnector } from '../../src/engines/tcp/connector';
import { parseAddress } from '../../src/net/address';

const connector = openTcpConnector();
connector.connect(parseAddress((workerData as { address: string }).address)!, 9, 10_000, () => undefined);
parentPort!.postMessage({ inFlight: connector.inFlight() });

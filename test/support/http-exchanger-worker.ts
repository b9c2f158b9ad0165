// Runs in a worker thread: opens its own HTTP engine and starts an exchange with a server that never
// answers (its port in workerData), then tells the parent, which terminates the thread mid-exchange.
import { parentPort, workerData } from 'node:worker_threads';
import { openHttpExchanger } from '../../src/engines/http/exchanger';
import { parseAddress } from '../../src/net/address';
import { openTrustStore, type TrustStore } from '../../src/tools/tls/trust-store';

const engine = openHttpExchanger((openTrustStore(null) as TrustStore).pem);
const request = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const spec = { address: parseAddress('127.0.0.1')!, port: (workerData as { port: number }).port, timeoutMs: 10_000, tls: false, serverName: '', verify: true, request, headRequest: false, bodyMaxBytes: 1024 };
engine.exchange(spec, () => undefined);
parentPort!.postMessage({ inFlight: engine.inFlight() });

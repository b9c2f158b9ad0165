import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createApp, type App } from '../app';
import { loadConfig } from '../config/config';
import { ConfigError } from '../config/errors';
import { UwsUnavailableError } from '../http/uws';
import { reloadAgentKeys } from '../locations/agent-keys-reload';
import { createLogger, type Logger } from '../log';
import { addon } from '../native/addon';
import { installLastResort } from '../observability/last-resort';
import { SharedCap } from '../ratelimit/shared-cap';
import { SharedInFlight } from '../ratelimit/shared-in-flight';
import { SharedLimiterStore } from '../ratelimit/shared-limiter-store';
import type { FromWorker, ToWorker, WorkerStart } from './messages';

// One worker thread: its own uWS app on the shared port and its own engines, with buckets, budgets and
// in-flight caps in the memory every worker shares. The main thread owns signals and the process.

const port = parentPort as MessagePort;
const start = workerData as WorkerStart;
const send = (message: FromWorker) => port.postMessage(message);

// /metrics served by this worker describes the whole process: the main thread gathers every worker's.
function metricsAcrossWorkers(): () => Promise<string> {
  let next = 0;
  const waiting = new Map<number, (text: string) => void>();
  port.on('message', (m: ToWorker) => {
    if (m.type === 'metrics-text') waiting.get(m.id)?.(m.text);
    if (m.type === 'metrics-text') waiting.delete(m.id);
  });
  return () =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      send({ type: 'metrics-wanted', id });
    });
}

function serve(app: App, log: Logger): void {
  port.on('message', (m: ToWorker) => {
    if (m.type === 'collect') void app.metrics.registry.getMetricsAsJSON().then((metrics) => send({ type: 'collected', id: m.id, metrics }));
    if (m.type === 'reload-keys') {
      reloadAgentKeys(app.agents, log);
      const reloaded = app.keys?.reload();
      if (reloaded === undefined) return send({ type: 'keys-reloaded', ok: false, keys: 0, error: 'API keys are off', apiKeysOff: true });
      send(reloaded.ok ? { type: 'keys-reloaded', ok: true, keys: reloaded.value } : { type: 'keys-reloaded', ok: false, keys: app.keys?.size ?? 0, error: reloaded.message });
    }
    if (m.type === 'shutdown') {
      // Agents are told the hub is going away; each dials again until it is back.
      app.agents?.hub.close();
      void app.server.shutdown(m.graceMs).then(async ({ unfinished }) => {
        await app.close();
        log.flush();
        send({ type: 'stopped', unfinished });
        // With the listen socket and engines closed and the port gone, nothing keeps this thread's
        // loop alive once the last connection closes.
        port.close();
      });
    }
  });
}

async function main(): Promise<void> {
  const config = { ...loadConfig(process.env, start.argv), port: start.port };
  const log = createLogger(config.logLevel, undefined, { worker: start.index });
  installLastResort(log);
  // First, before uWS opens a socket on this thread: a thread that ends without a shutdown must not take the process with it.
  addon().closeStrayPollsAtTeardown();
  const { memory } = start;
  const app = createApp(config, log, {
    // Each lock this thread takes carries its id, so the supervisor can free them if it dies holding one.
    store: new SharedLimiterStore(memory.clients, performance.timeOrigin, start.index + 1),
    targetStore: new SharedLimiterStore(memory.targets, performance.timeOrigin, start.index + 1),
    resolverStore: new SharedLimiterStore(memory.resolvers, performance.timeOrigin, start.index + 1),
    inFlight: new SharedInFlight(memory.inFlight, config.maxInFlightPerClient, config.maxInFlight, 1, start.index),
    traceCap: new SharedCap(memory.traces, config.maxTracesInFlight, start.index),
    agentCount: new SharedCap(memory.agents, config.maxAgents, start.index),
    metricsText: metricsAcrossWorkers(),
  });
  serve(app, log);
  await app.ready();
  await app.server.listen();
  const info = Object.fromEntries(app.tools.list.map(({ tool, slot }) => [tool.name, 'unavailable' in slot ? { unavailable: slot.unavailable } : slot.info]));
  send({ type: 'listening', info: { ...info, apiKeys: app.keys === null ? 'off' : app.keys.size, agentKeys: app.agents === null ? 'off' : app.agents.keys.size } });
}

main().catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof UwsUnavailableError;
  send({ type: 'failed', message: known ? (err as Error).message : ((err as Error).stack ?? String(err)), exitCode: known ? 2 : 1 });
  port.close();
});

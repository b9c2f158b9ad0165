import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import type { ChildServer } from './child-server';
import { request } from './http';
import { waitFor } from './wait';

// Which worker thread of a hub served a request, or holds an agent: the kernel spreads fresh connections
// over the workers (SO_REUSEPORT), so a test tags each request with an X-Request-Id and reads the access log.

const logLines = (hub: ChildServer) => hub.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

// The worker that served the request with this id, once its access log line is out.
export async function servedBy(hub: ChildServer, id: string): Promise<number> {
  await waitFor(`the access log line of ${id}`, () => logLines(hub).some((l) => l['msg'] === 'request' && l['requestId'] === id));
  // A server on one thread logs no worker: it is worker 0.
  return (logLines(hub).find((l) => l['msg'] === 'request' && l['requestId'] === id)!['worker'] as number | undefined) ?? 0;
}

// The worker holding the latest connection of this location.
export function holder(hub: ChildServer, location: string): number {
  return logLines(hub).filter((l) => l['msg'] === 'agent connected' && l['location'] === location).at(-1)!['worker'] as number;
}

// Listed (or not) by every worker of the hub: each request is tagged, the access log says which worker
// answered, and it holds once the latest answer of each worker agrees. A run of agreeing answers alone is
// not enough: the kernel picks each fresh connection's worker, and ten in a row can all land on one
// while the other has not yet read the listing.
export async function listedEverywhere(hub: ChildServer, name: string, listed = true): Promise<void> {
  const workers = workerCount(hub);
  const latest = new Map<number, boolean>();
  await waitFor(`${name} ${listed ? '' : 'not '}listed by each of ${workers} worker(s)`, async () => {
    const id = `listed-${randomUUID()}`;
    const reply = await request(hub.base, '/api/locations', { headers: { 'x-request-id': id } });
    if (reply.status !== 200) throw new Error(`GET /api/locations: ${reply.status}`);
    const names = (reply.json() as Array<{ name: string }>).map((l) => l.name);
    latest.set(await servedBy(hub, id), names.includes(name));
    return latest.size === workers && [...latest.values()].every((v) => v === listed);
  });
}

// The hub's worker threads, as its `listening` line says (none said: one thread).
function workerCount(hub: ChildServer): number {
  const listening = logLines(hub).find((l) => l['msg'] === 'listening');
  return typeof listening?.['workers'] === 'number' ? listening['workers'] : 1;
}

// Runs `attempt` with a fresh request id until a request was served by a worker other than the agent's
// (and at least once on each); at most 40 times: the kernel spreads fresh connections over both.
export async function onEachWorker(hub: ChildServer, location: string, attempt: (id: string) => Promise<void>): Promise<Set<number>> {
  const workers = new Set<number>();
  for (let i = 0; i < 40 && workers.size < 2; i++) {
    const id = `req-${randomUUID()}`;
    // A failure says what the hub's workers logged besides requests: agents connecting, dropped, replaced.
    await attempt(id).catch((err: Error) => {
      err.message += `\nthe hub's last log lines but requests:\n${hub.logs.filter((l) => !l.includes('"msg":"request"')).slice(-30).join('\n')}`;
      throw err;
    });
    workers.add(await servedBy(hub, id));
  }
  assert.equal([...workers].sort(), [0, 1], `requests served by workers ${[...workers]} only (the agent is on ${holder(hub, location)})`);
  return workers;
}


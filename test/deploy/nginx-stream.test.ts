import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseNdjson, postStream } from '../api/stream-reader';
import { startFrontDoor, type FrontDoor } from '../support/nginx';

// A streamed ping through the shipped nginx config: nginx passes Accept on and the stream through
// unbuffered, so each reply reaches the client as its echo comes back, not all at the end.
const test = suite<FrontDoor>('streamed results through nginx');

test.before(async (ctx) => {
  Object.assign(ctx, await startFrontDoor({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' }));
});

test.after(async (ctx) => {
  await ctx.stop?.();
});

test('a 4-echo ping at 300 ms streams its replies spaced as the echoes are, through nginx', async ({ nginx }) => {
  const s = await postStream(`https://127.0.0.1:${nginx.port}`, '/api/tools/ping', { host: '127.0.0.1', count: 4, intervalMs: 300 }, 'application/x-ndjson');
  await s.ended;
  assert.is(s.status, 200);
  assert.match(String(s.headers['content-type']), 'application/x-ndjson');
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'reply', 'summary']);
  const replies = events.filter((e) => e.event === 'reply');
  const summary = events[events.length - 1]!;
  // Buffered by nginx, every event would arrive with the summary; three intervals lie between the first
  // reply and the last.
  assert.ok(summary.at - replies[0]!.at > 600, `first reply ${Math.round(summary.at - replies[0]!.at)} ms before the summary`);
});

test.run();

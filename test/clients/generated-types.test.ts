import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GENERATED_FILE, generateTypes } from '../../clients/typescript/scripts/generate-types';
import { request } from '../support/http';
import { startServer, type RunningServer } from '../support/server';

// The client's types are generated from the document; this keeps the checked-in file from going stale.
const test = suite<{ server: RunningServer; served: any }>('generated client types');

test.before(async (ctx) => {
  ctx.server = await startServer();
  ctx.served = (await request(ctx.server.base, '/openapi.json')).json();
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

test('the checked-in types are what the generator makes of the served /openapi.json', async ({ served }) => {
  const fresh = await generateTypes(served);
  const checkedIn = readFileSync(GENERATED_FILE, 'utf8');
  assert.ok(fresh === checkedIn, 'clients/typescript/src/generated/openapi.ts is stale: run `npx tsc -p tsconfig.json && npm run generate --prefix clients/typescript`');
});

test('a change to the document changes the generated types', async ({ served }) => {
  const changed = structuredClone(served);
  changed.components.schemas.PingResult.properties.reachable.description = 'Changed.';
  assert.is.not(await generateTypes(changed), await generateTypes(served));
});

test("the server's resolver ids are not baked into the client's types", async ({ served }) => {
  assert.equal(served.components.schemas.DnsRequest.properties.resolvers.items.enum, ['test1', 'test2']);
  const text = await generateTypes(served);
  assert.match(text, /resolvers\?: string\[\];/);
  assert.not.match(text, /"test1"/);
});

test.run();

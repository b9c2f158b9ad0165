import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cli } from './hostile-answers';
import { json, startHostile, type Hostile } from './hostile-server';

// `nettools tls HOST [PORT]`: what it asks, what it prints, and its exit status for CI (--cert-days).
const test = suite<{ hostile: Hostile }>('nettools tls');

test.before(async (ctx) => {
  ctx.hostile = await startHostile();
});

test.after(async (ctx) => {
  await ctx.hostile?.close();
});

const certificate = (daysLeft: number) => ({ subject: 'a.test', issuer: 'Test CA', sans: ['a.test'], sansCount: 1, serial: '01', notBefore: '2026-11-01T00:00:00.000Z', notAfter: '2026-12-27T00:00:00.000Z', daysLeft, keyType: 'ec', keyBits: 256, sha256: 'AA:BB' });
const handshake = (over: Record<string, unknown> = {}) => ({
  host: '127.0.0.1', address: '127.0.0.1', ipVersion: 4, port: 8443, serverName: 'a.test', status: 'handshake', verified: true, protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384', ocspStapled: false,
  certificates: [certificate(30)], timings: { resolveMs: 0, connectMs: 0.1, handshakeMs: 2 }, durationMs: 2.5, startedAt: '2026-11-27T12:00:00.000Z', ...over,
});

test('HOST PORT and --servername are the request; a verified handshake prints the session and the chain, exit 0', async ({ hostile }) => {
  hostile.answer(json(200, handshake()));
  const r = await cli(['tls', '127.0.0.1', '8443', '--servername', 'a.test', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.equal(hostile.requests.at(-1), { host: '127.0.0.1', port: 8443, serverName: 'a.test' });
  assert.match(r.out, 'TLSv1.3 TLS_AES_256_GCM_SHA384, verified');
  assert.match(r.out, ' 0 subject a.test, issuer Test CA, not after 2026-12-27T00:00:00.000Z (30 days left)');
});

test('--cert-days N exits 1 when the certificate ends in fewer than N days, 0 when not', async ({ hostile }) => {
  hostile.answer(json(200, handshake()));
  const short = await cli(['tls', '127.0.0.1', '--cert-days', '45', '--server', hostile.base]);
  assert.is(short.code, 1);
  assert.match(short.err, 'ends in 30 days, fewer than --cert-days 45');
  hostile.answer(json(200, handshake()));
  assert.is((await cli(['tls', '127.0.0.1', '--cert-days', '14', '--server', hostile.base])).code, 0);
});

test('a certificate that does not verify, or no handshake, exits 1 and says why', async ({ hostile }) => {
  hostile.answer(json(200, handshake({ verified: false, verifyError: 'CERT_HAS_EXPIRED' })));
  const expired = await cli(['tls', '127.0.0.1', '--server', hostile.base]);
  assert.is(expired.code, 1);
  assert.match(expired.err, 'does not verify: CERT_HAS_EXPIRED');
  hostile.answer(json(200, { ...handshake({ status: 'refused', code: 'ECONNREFUSED' }), verified: undefined, certificates: undefined, protocol: undefined, cipher: undefined }));
  const refused = await cli(['tls', '127.0.0.1', '--server', hostile.base]);
  assert.is(refused.code, 1);
  assert.match(refused.err, 'no TLS handshake with 127.0.0.1: refused (ECONNREFUSED)');
});

test('a PORT that is not a number is a usage error (exit 2)', async ({ hostile }) => {
  const r = await cli(['tls', '127.0.0.1', 'https', '--server', hostile.base]);
  assert.is(r.code, 2);
  assert.match(r.err, 'PORT must be a whole number, not https');
});

test.run();

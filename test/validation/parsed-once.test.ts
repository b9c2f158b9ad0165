import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dnsTool } from '../../src/tools/dns';
import { pingTool } from '../../src/tools/ping';
import { tracerouteTool } from '../../src/tools/traceroute';
import type { Tool } from '../../src/tools/tool';
import { PARSERS, type FormatParsers } from '../../src/validation/format-values';
import { parseHost } from '../../src/validation/names';
import { createSchemaCompiler, type Validate } from '../../src/validation/validator';

// The host and the domain are parsed once, by their format, and normalize takes the value the format
// made: counted through the compiler's parser seam, with the real parsers behind it.
function counting(): { parsers: FormatParsers; calls: { host: string[]; domain: string[] } } {
  const calls = { host: [] as string[], domain: [] as string[] };
  return {
    calls,
    parsers: {
      host: (s) => (calls.host.push(s), PARSERS.host(s)),
      domain: (s) => (calls.domain.push(s), PARSERS.domain(s)),
    },
  };
}

for (const [name, tool] of [['ping', pingTool], ['traceroute', tracerouteTool]] as Array<[string, Tool<any, any>]>) {
  test(`${name}: the host is parsed once, and the request carries the value its format made`, () => {
    const { parsers, calls } = counting();
    const validate = createSchemaCompiler(parsers)(tool.requestSchema(['r1']), tool.normalize) as Validate<any>;
    for (const host of ['Example.TEST.', '[2001:DB8::1]', '::ffff:192.0.2.1', '192.0.2.1', 'bücher.example']) {
      calls.host.length = 0;
      const r = validate({ host });
      assert.ok(r.ok, host);
      assert.equal(calls.host, [host], host);
      assert.equal(r.ok && r.value.target, parseHost(host), host);
    }
  });
}

test('dns: the domain is parsed once, its ASCII form the one the format made', () => {
  const { parsers, calls } = counting();
  const validate = createSchemaCompiler(parsers)(dnsTool.requestSchema(['r1']), dnsTool.normalize) as Validate<any>;
  const r = validate({ domain: 'Bücher.Example.' });
  assert.equal(calls.domain, ['Bücher.Example.']);
  assert.ok(r.ok && r.value.domain === 'xn--bcher-kva.example');
});

test('a refused host is parsed once and not normalized; the next body is parsed afresh', () => {
  const { parsers, calls } = counting();
  const validate = createSchemaCompiler(parsers)(pingTool.requestSchema(['r1']), pingTool.normalize) as Validate<any>;
  const refused = validate({ host: 'http://a.test' });
  assert.ok(!refused.ok && refused.errors[0]?.pointer === '/host');
  const r = validate({ host: 'a.test' });
  assert.equal(calls.host, ['http://a.test', 'a.test']);
  assert.equal(r.ok && r.value.target, { kind: 'name', value: 'a.test' });
});

test('a kept value never stands for another text: normalize given a different host parses that one', () => {
  const { parsers, calls } = counting();
  const validate = createSchemaCompiler(parsers)(pingTool.requestSchema(['r1']), (request: { host: string }, formats) =>
    pingTool.normalize({ ...request, host: 'b.test' } as never, formats),
  ) as Validate<any>;
  const r = validate({ host: 'a.test' });
  assert.equal(calls.host, ['a.test', 'b.test']);
  assert.equal(r.ok && r.value.target, { kind: 'name', value: 'b.test' });
});

test.run();

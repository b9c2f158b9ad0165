import Ajv2020 from 'ajv/dist/2020';
import * as assert from 'uvu/assert';
import { buildOpenApi } from '../../src/openapi/document';
import { TOOLS } from '../../src/tools/registry';

// Real responses checked against the published document: the schemas and the behaviour cannot drift apart.
const doc = buildOpenApi(TOOLS, [], 'test') as { components: { schemas: Record<string, object> } };
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);

export function assertMatchesSchema(name: string, value: unknown): void {
  const validate = ajv.getSchema(`#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  assert.ok(validate(value), `${name}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value)}`);
}

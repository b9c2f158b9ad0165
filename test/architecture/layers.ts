// The layers of src/, top to bottom, as docs/layout.md states them (test/docs/layout-page.test.ts holds the two together). A file may import
// from its own layer and from any layer below it, never from one above.
export const LAYERS: ReadonlyArray<readonly string[]> = [
  ['src/main.ts', 'src/cli'],
  ['src/workers'],
  ['src/app.ts', 'src/shared-budgets.ts'],
  ['src/openapi'],
  ['src/http'],
  ['src/locations'],
  ['src/tools'],
  ['src/probe', 'src/observability', 'src/docs', 'src/page'],
  ['src/engines', 'src/policy', 'src/validation', 'src/keys', 'src/log.ts'],
  ['src/config'],
  ['src/ratelimit'],
  ['src/net', 'src/native', 'src/problems'],
  ['src/util'],
];


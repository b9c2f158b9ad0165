import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// GET /docs: Swagger UI (swagger-ui-dist: renders OpenAPI 3.1 and lets a reader send a request from the
// page) over /openapi.json, every file served by this server from node_modules, read once at start, so
// the page works on a network with no internet. No inline script: the start-up code is a file too.

export interface DocsAsset {
  contentType: string;
  body: string;
  etag: string;
}

// Scripts and styles from this origin only, none inline (React sets its styles through the DOM, which
// style-src does not govern); Swagger UI draws its icons as data: SVGs; the page talks to this server alone.
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nettools API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

// validatorUrl null: the default badge would ask validator.swagger.io about our document.
const START = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
});
`;

// A file served as is, with an ETag from its bytes (the live page's files are made the same way).
export function asset(contentType: string, body: string): DocsAsset {
  return { contentType, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

// Paths to what they answer with.
export function loadDocsAssets(): Map<string, DocsAsset> {
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');
  return new Map([
    ['/docs', asset('text/html; charset=utf-8', PAGE)],
    ['/docs/start.js', asset('text/javascript; charset=utf-8', START)],
    ['/docs/swagger-ui.css', asset('text/css; charset=utf-8', read('swagger-ui.css'))],
    ['/docs/swagger-ui-bundle.js', asset('text/javascript; charset=utf-8', read('swagger-ui-bundle.js'))],
  ]);
}

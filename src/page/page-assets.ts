import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { asset, type DocsAsset } from '../docs/docs-assets';

// GET /: the live page. Its HTML and styles are files in web/, its script the ES modules compiled from
// web/*.ts into dist/web (npm run build / prepare), all read once at start and served by this server
// under the /docs CSP: the modules load from /page/ with script-src 'self', nothing inline, no CDN.
// The page reads the API through the typed client, served beside it under /page/client/ as built.

// From dist/src/page to the project root.
const ROOT = path.join(__dirname, '..', '..', '..');
const JS = 'text/javascript; charset=utf-8';

export interface PageAssets {
  files: Map<string, DocsAsset>; // empty when the script was not built
  missing: string | null; // what is not there, to say so in the log
}

export function loadPageAssets(root = ROOT): PageAssets {
  const web = path.join(root, 'web');
  const built = path.join(root, 'dist', 'web');
  const client = path.join(root, 'clients', 'typescript', 'dist');
  for (const entry of [path.join(built, 'main.js'), path.join(client, 'index.js')]) {
    if (!existsSync(entry)) return { files: new Map(), missing: `${entry} (run npm run build)` };
  }
  const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');
  const files = new Map<string, DocsAsset>([
    ['/', asset('text/html; charset=utf-8', read(web, 'index.html'))],
    ['/page/live.css', asset('text/css; charset=utf-8', read(web, 'live.css'))],
  ]);
  for (const file of modules(built)) files.set(`/page/${file}`, asset(JS, read(built, file)));
  // The client's library is its build's top level; cli/ is the command line (Node only) and stays out.
  for (const file of modules(client)) files.set(`/page/client/${file}`, asset(JS, read(client, file)));
  return { files, missing: null };
}

const modules = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.js')).sort();

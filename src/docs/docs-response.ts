import { DOCS_CSP, type DocsAsset } from './docs-assets';

// What GET /docs and its files answer, as plain data: the HTTP layer only writes it out.
export interface DocsResponse {
  status: 200 | 304;
  headers: ReadonlyArray<readonly [string, string]>;
  contentType: string | null;
  body: string | null;
}

// no-cache: a browser keeps the file but asks again each time, so a new release shows at once and an
// unchanged file costs a 304 without its body.
function headersFor(asset: DocsAsset): Array<[string, string]> {
  return [
    ['ETag', asset.etag],
    ['Cache-Control', 'no-cache'],
    ['Content-Security-Policy', DOCS_CSP],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'no-referrer'],
  ];
}

// RFC 9110 13.1.2: If-None-Match is `*` or a list of entity tags, compared weakly (W/ is ignored).
export function noneMatch(ifNoneMatch: string, etag: string): boolean {
  const wanted = ifNoneMatch.trim();
  if (wanted === '') return true;
  if (wanted === '*') return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return !wanted.split(',').some((tag) => opaque(tag.trim()) === opaque(etag));
}

export function docsResponse(asset: DocsAsset, ifNoneMatch: string): DocsResponse {
  const headers = headersFor(asset);
  if (!noneMatch(ifNoneMatch, asset.etag)) return { status: 304, headers, contentType: null, body: null };
  return { status: 200, headers, contentType: asset.contentType, body: asset.body };
}

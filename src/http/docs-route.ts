import type { DocsAsset } from '../docs/docs-assets';
import { docsResponse } from '../docs/docs-response';
import type { Route } from './route';

// One route per docs file; what it answers is decided in src/docs.
export function docsRoute(asset: DocsAsset): Route {
  return {
    allow: 'GET, HEAD',
    methods: {
      GET: (ex, req) => {
        const answer = docsResponse(asset, req.getHeader('if-none-match'));
        for (const [name, value] of answer.headers) ex.header(name, value);
        ex.send(answer.status, answer.contentType, answer.body);
      },
    },
  };
}

// The typed client as the page imports it. The server serves the client's build under /page/client/,
// beside the page's own modules (src/page/page-assets.ts), so './client/index.js' is where the browser
// finds it; these are that build's own types (clients/typescript is compiled before web/).
export * from '../../clients/typescript/dist/index.js';

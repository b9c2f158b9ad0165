// The client's version; test/clients checks it against clients/typescript/package.json.
export const VERSION = '0.1.0';

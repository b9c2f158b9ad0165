import { addon } from './native/addon';

console.log(JSON.stringify({ addon: addon().version(), capabilities: addon().capabilities() }));

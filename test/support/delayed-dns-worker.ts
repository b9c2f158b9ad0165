// Runs in a worker thread, so it answers on its own event loop while the test's loop is held busy: an
// A answer to every query, sent after the number of ms its first label names (`d150.x.test`: 150 ms;
// no such label: at once). Posts its address and port, then serves until terminated.
import { parentPort } from 'node:worker_threads';
import { answerA, startScriptedDns } from './scripted-dns';

void startScriptedDns((q, dns) => {
  const delay = /^d(\d+)\./.exec(q.name);
  const send = () => void dns.send(answerA(q, '192.0.2.9'), q);
  if (delay) setTimeout(send, Number(delay[1]));
  else send();
}).then((dns) => parentPort!.postMessage({ address: dns.address, port: dns.port }));

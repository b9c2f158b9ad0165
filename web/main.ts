import { startDnsView } from './dns-view.js';
import { startPingView } from './ping-view.js';
import { startTraceView, TRACE_PATH } from './trace-view.js';

// The live page's entry: ping and dns are always there; trace only when the server offers it.

startPingView();
startDnsView();

void fetch('/openapi.json')
  .then((response) => (response.ok ? response.json() : null))
  .then((doc: { paths?: Record<string, unknown> } | null) => {
    if (doc?.paths?.[TRACE_PATH] !== undefined) startTraceView();
  })
  .catch(() => undefined) // without the document the page still pings and asks; trace stays hidden
  .finally(() => document.body.setAttribute('data-ready', 'true'));

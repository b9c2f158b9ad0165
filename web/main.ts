import { startDnsView } from './dns-view.js';
import { startPingView } from './ping-view.js';
import { MTR_PATH, startMtrView } from './mtr-view.js';
import { startTraceView, TRACE_PATH } from './trace-view.js';

// The live page's entry: ping and dns are always there; trace and mtr only when the server offers them.

startPingView();
startDnsView();

void fetch('/openapi.json')
  .then((response) => (response.ok ? response.json() : null))
  .then((doc: { paths?: Record<string, unknown> } | null) => {
    if (doc?.paths?.[TRACE_PATH] !== undefined) startTraceView();
    if (doc?.paths?.[MTR_PATH] !== undefined) startMtrView();
  })
  .catch(() => undefined) // without the document the page still pings and asks; trace and mtr stay hidden
  .finally(() => document.body.setAttribute('data-ready', 'true'));

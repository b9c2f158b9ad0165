import { startDnsView } from './dns-view.js';
import { startLocationsPicker } from './locations-picker.js';
import { startPingView } from './ping-view.js';
import { startTraceView, TRACE_PATH } from './trace-view.js';

// The live page's entry: ping and dns are always there; trace only when the server offers it; the
// locations picker only when the server lists agents beside itself.

startPingView();
startDnsView();

const trace = fetch('/openapi.json')
  .then((response) => (response.ok ? response.json() : null))
  .then((doc: { paths?: Record<string, unknown> } | null) => {
    if (doc?.paths?.[TRACE_PATH] !== undefined) startTraceView();
  })
  .catch(() => undefined); // without the document the page still pings and asks; trace stays hidden

// Without the list the page measures from this server alone, as it always did.
void Promise.all([trace, startLocationsPicker().catch(() => undefined)]).finally(() => document.body.setAttribute('data-ready', 'true'));

import { startDnsView } from './dns-view.js';
import { HTTP_PATH, startHttpView } from './http-view.js';
import { startLocationsPicker } from './locations-picker.js';
import { startPingView } from './ping-view.js';
import { MTR_PATH, startMtrView } from './mtr-view.js';
import { startTcpView, TCP_PATH } from './tcp-view.js';
import { startTlsView, TLS_PATH } from './tls-view.js';
import { startTraceView, TRACE_PATH } from './trace-view.js';

// The live page's entry: ping and dns are always there; trace, mtr, tcp, tls and http only when the server
// offers them; the locations picker only when the server lists agents beside itself.

startPingView();
startDnsView();

const tools = fetch('/openapi.json')
  .then((response) => (response.ok ? response.json() : null))
  .then((doc: { paths?: Record<string, unknown> } | null) => {
    if (doc?.paths?.[TRACE_PATH] !== undefined) startTraceView();
    if (doc?.paths?.[MTR_PATH] !== undefined) startMtrView();
    if (doc?.paths?.[TCP_PATH] !== undefined) startTcpView();
    if (doc?.paths?.[TLS_PATH] !== undefined) startTlsView();
    if (doc?.paths?.[HTTP_PATH] !== undefined) startHttpView();
  })
  .catch(() => undefined); // without the document the page still pings and asks; the others stay hidden

// Without the list the page measures from this server alone, as it always did.
void Promise.all([tools, startLocationsPicker().catch(() => undefined)]).finally(() => document.body.setAttribute('data-ready', 'true'));

import type { WebSocket, WebSocketBehavior } from 'uWebSockets.js';
import { newSession, type AgentPeer, type AgentSession, type Hub } from '../locations/hub';
import { MAX_BACKPRESSURE_BYTES, MAX_MESSAGE_BYTES } from '../locations/protocol';
import { authorizationLines } from './pipeline/authenticate';
import type { TemplatedApp } from './uws';

export const AGENTS_PATH = '/api/agents/connect';

type Socket = WebSocket<AgentSession>;

const decoder = new TextDecoder('utf-8', { fatal: true });

// uWS hands over the message's bytes, valid only during the callback: decoded here, once. Invalid UTF-8
// is no text at all.
function textOf(message: ArrayBuffer): string | null {
  try {
    return decoder.decode(message);
  } catch {
    return null;
  }
}

// uWS's handle becomes unusable once its close event has run: every call goes through the session's
// peer, which the hub clears in `closed`.
function peerOf(ws: Socket): AgentPeer {
  return {
    send: (text) => void ws.cork(() => ws.send(text, false)),
    bufferedBytes: () => ws.getBufferedAmount(),
    ping: () => void ws.cork(() => ws.ping()),
    end: (code, reason) => ws.end(code, reason),
    terminate: () => ws.close(),
  };
}

// Refused before the upgrade, so a connection without a good key never becomes a WebSocket.
const STATUS = { 'invalid-agent-key': '401 Unauthorized', 'too-many-agents': '503 Service Unavailable' } as const;

// `/api/agents/connect`: the hub's WebSocket for agents, on the same App as the API.
export function mountAgentsSocket(app: TemplatedApp, hub: Hub): void {
  const behaviour: WebSocketBehavior<AgentSession> = {
    maxPayloadLength: MAX_MESSAGE_BYTES,
    maxBackpressure: MAX_BACKPRESSURE_BYTES,
    // The hub keeps its own heartbeat (hub.ts), with a timeout an operator or a test can set.
    idleTimeout: 0,
    sendPingsAutomatically: false,
    upgrade: (res, req, context) => {
      // All of req is read here: it is invalid once this handler returns.
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const admitted = hub.admit(authorizationLines(req));
      if (!admitted.ok) {
        res.cork(() => {
          res.writeStatus(STATUS[admitted.code]).writeHeader('Content-Type', 'application/json');
          if (admitted.code === 'invalid-agent-key') res.writeHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
          res.end(JSON.stringify({ code: admitted.code, detail: admitted.message }));
        });
        return;
      }
      const session = newSession(admitted.value.keyHash, admitted.value.location, Date.now());
      res.upgrade(session, key, protocol, extensions, context);
    },
    open: (ws) => {
      const session = ws.getUserData();
      session.peer = peerOf(ws);
      hub.opened(session);
    },
    message: (ws, message, isBinary) => hub.message(ws.getUserData(), isBinary ? null : textOf(message)),
    pong: (ws) => hub.pong(ws.getUserData()),
    close: (ws, code) => hub.closed(ws.getUserData(), code),
  };
  app.ws(AGENTS_PATH, behaviour);
}

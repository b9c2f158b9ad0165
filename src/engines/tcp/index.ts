export { openTcpConnector, tcpLimits, type ConnectAttempt, type ConnectOutcome, type TcpConnector } from './connector';

import { serveBare } from './bare-uws';

// The plain ceiling of the HTTP path on this machine: bare uWS answering the validation scenario's body
// with a status line and a content type only. Nothing a real server must do (routing, JSON, schemas,
// the headers the contract requires) happens here; kept for reference beside the byte-identical one.
serveBare('ceiling', () => '400 Bad Request\r\nContent-Type: application/problem+json');

import type { Cidr } from '../../net/ip';
import { clientAddress, clientKey } from '../client-key';
import type { Exchange } from '../exchange';
import type { HttpRequest } from '../uws';

// Who is asking: the socket peer, or the client a trusted proxy forwarded for. X-Forwarded-For is read
// only when some proxy is trusted: otherwise nobody pays for walking a header that will never be believed.
// Returns the client's rate-limit key.
export function identifyClient(ex: Exchange, req: HttpRequest, trustProxy: readonly Cidr[]): string {
  if (trustProxy.length > 0) ex.client = clientAddress(ex.client, forwardedFor(req), trustProxy);
  return clientKey(ex.client);
}

// Every X-Forwarded-For line, joined as RFC 9110 allows; undefined when there is none.
function forwardedFor(req: HttpRequest): string | undefined {
  let joined: string | undefined;
  req.forEach((name, value) => {
    if (name === 'x-forwarded-for') joined = joined === undefined ? value : `${joined},${value}`;
  });
  return joined;
}

// Which ports a connection check (tcp, and next tls and http) may connect to. Ports 1024..65535 and the
// web's 80 and 443 are open to every caller; any other port below 1024 is a service whose probing is the
// classic abuse of a check like this (SMTP relays on 25, SSH on 22, SMB on 445), so it is refused unless
// the operator lists it (NETTOOLS_CHECK_PORTS, e.g. 465,636,853,993,995).
const ALWAYS_ALLOWED = new Set([80, 443]);
const FIRST_UNPRIVILEGED = 1024;

// Null when `port` may be checked; otherwise why not, in words for the problem's detail.
export function refusePort(port: number, listed: readonly number[]): string | null {
  if (port >= FIRST_UNPRIVILEGED || ALWAYS_ALLOWED.has(port) || listed.includes(port)) return null;
  return `port ${port} is refused on this server: below 1024 only 80, 443${listed.length > 0 ? ` and ${listed.join(', ')}` : ''} are allowed (NETTOOLS_CHECK_PORTS lists more)`;
}

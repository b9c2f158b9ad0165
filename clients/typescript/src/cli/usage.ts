// What `--help` prints: the whole command line, or one command's own (`nettools ping --help`).
const COMMON = `Options of every command:
  --server URL       the nettools server (or NETTOOLS_URL; http://127.0.0.1:8080 unless set)
  --key KEY          API key, sent as a Bearer token (or NETTOOLS_API_KEY)
  --json             print the API's JSON answer instead of text (with --watch: its events, one JSON a
                     line); control characters in it are escaped as \\uXXXX, still valid JSON
  -w, --deadline S   give up after S seconds (decimals allowed) without a whole answer: exit 4. The clock
                     stops while Retry-After is waited for. Unless set: the longest the request can take
                     (from its count, interval and timeouts, the server's defaults for those not given)
                     plus 15 s
  --watch            print each result as it arrives; Ctrl-C stops: ping prints the statistics so far and
                     exits 0 only if every echo decided by then was answered; dns and trace exit 1; mtr
                     redraws its table after each cycle (on a terminal in place) and exits 0 only if
                     the destination had answered
  --no-wait          on 429 or 503, do not wait as Retry-After says and resend; report at once
  -h, --help         this text (after a command: that command's own)
  --version          the client's version`;

const EXIT_STATUS = `Exit status: 0 success; 1 measured but failed (unreachable, packet loss, a failed connection, no such domain, no
record of the type, resolvers disagree, expectation not met, destination not reached; for ping, trace and
mtr also a host name that does not resolve); 2 usage; 3 refused by the server; 4 no usable answer from the
server (none, none within the deadline, cut off, too large, not the API's shape); 5 the resolvers behind
the server gave no answer (retrying later may help). With --from: ping, trace, mtr, tcp, tls and http 0 when at least --quorum
locations (every one asked, unless set) reached the target, else 1; dns the worst status of the
locations, one that gave no answer counting as 1; a refusal of the whole request as above.`;

const FROM = `  --from LOCATIONS   measure from these locations of the server (see \`nettools locations\`): names
                     (fra1,nyc1), all, or a number N (any N of them). One block per location, headed
                     by its name, then the verdict line; with --json the API's answer. With --watch:
                     every location's lines as they arrive, each led by [its name], then the verdict`;

const QUORUM = `  --quorum N         with --from: exit 0 when at least N locations reached the target, else 1`;

const LOCATIONS = `  nettools locations

  Where the server can measure from: itself first, then each agent connected to it, with its labels,
  tools, version and since when (--json: the API's answer).`;

const PING = `  nettools ping HOST [-c N] [-i S | --interval MS] [-W S | --timeout MS] [-s BYTES] [-4|-6] [--watch]
                     [--from LOCATIONS [--quorum N]]

  -c, --count N      echo requests to send (the server's default: 4; up to 10, or 3600 with --watch)
  -i S               seconds between echoes, as ping's -i (decimals allowed)
  --interval MS      the same in milliseconds (the server's bounds: 100 to 1000, or 60000 with --watch)
  -W S               seconds to wait for each reply, as ping's -W (decimals allowed)
  --timeout MS       the same in milliseconds (100 to 5000, default 1000)
  -s, --size BYTES   payload bytes per echo request (0 to 1400, default 56)
  -4, -6             the address family to resolve HOST to (or --ip-version 4|6)
${FROM}
${QUORUM}`;

const DNS = `  nettools dns DOMAIN [TYPE ...] [--type T ...] [--expect TEXT ...] [--consistent] [--dnssec] [--resolver ID ...]
                     [--timeout MS] [--watch] [--from LOCATIONS]

  TYPE, --type T     record types to ask, after DOMAIN as dig takes them or with --type (repeat, or
                     T1,T2): A AAAA MX TXT CNAME NS SOA CAA SRV PTR HTTPS SVCB DS DNSKEY TLSA NAPTR, up
                     to 8 (the server's default: A, AAAA, MX, TXT; PTR for an IP address)
  --dnssec           set the DO bit: each resolver's AD flag and RRSIGs, and records validated by all
  --expect TEXT      must be in every asked resolver's answer (a TXT value exactly; an address or an MX
                     exchange regardless of case and final dot)
  --consistent       exit 1 when the resolvers' answers disagree
  --resolver ID      which of the server's resolvers to ask (repeat, or ID1,ID2)
  --timeout MS       per resolver and query, retries included (100 to 5000, default 2000)
${FROM}
  Record data is printed as dig prints it: bytes outside printable ASCII as \\DDD.`;

const TRACE = `  nettools trace HOST [--max-hops N] [--probes N] [--timeout MS] [-4|-6] [--names] [--asn] [--watch]
                     [--from LOCATIONS [--quorum N]]

  --max-hops N       highest TTL probed (1 to 32, the server's default: 30)
  --probes N         probes per hop (1 to 3, default 2)
  --timeout MS       how long to wait for each probe's answer (100 to 3000, default 1000)
  -4, -6             the address family to resolve HOST to (or --ip-version 4|6)
  --names            ask the server for each hop's name (PTR) and print \`name (address)\` as traceroute
                     does; without it addresses only, as \`traceroute -n\`
  --asn              ask the server for each hop's origin AS and print it after the hop as [AS64500],
                     as traceroute -A does
${FROM}
${QUORUM}`;

const MTR = `  nettools mtr HOST [-c N | --cycles N] [-i S | --interval MS] [--max-hops N] [--timeout MS] [-4|-6]
                     [--names] [--asn] [--watch] [--from LOCATIONS [--quorum N]]

  -c, --cycles N     rounds of probes over the whole path (the server's default: 10; up to 10, or 3600
                     with --watch)
  -i S               seconds from one cycle's start to the next's (decimals allowed)
  --interval MS      the same in milliseconds (200 to 60000, default 1000)
  --max-hops N       highest TTL probed (1 to 32, default 30)
  --timeout MS       how long to wait for each probe's answer (100 to 3000, default 1000)
  -4, -6             the address family to resolve HOST to (or --ip-version 4|6)
  --names            print each address's name (PTR) as \`name (address)\`; without it addresses only
  --asn              an AS column: each address's origin AS (AS??? where the server found none)
${FROM}
${QUORUM}
  Prints a table as \`mtr --report\` does: Host, Loss%, Snt, Last, Avg, Best, Wrst, StDev per hop.`;

const TCP = `  nettools tcp HOST PORT [-c N] [-i S | --interval MS] [-W S | --timeout MS] [-4|-6] [--watch]
                     [--from LOCATIONS [--quorum N]]

  -c, --count N      connection attempts (the server's default: 4; up to 10, or 3600 with --watch)
  -i S               seconds between attempt starts (decimals allowed)
  --interval MS      the same in milliseconds (the server's bounds: 200 to 1000, or 60000 with --watch)
  -W S               seconds each attempt may take to connect (decimals allowed)
  --timeout MS       the same in milliseconds (100 to 10000, default 2000)
  -4, -6             the address family to resolve HOST to (or --ip-version 4|6)
  No byte is sent: each connection is closed once established. Ports below 1024 other than 80 and 443
  are refused unless the server allows them. Exit 1 unless every attempt connected.
${FROM}
${QUORUM}`;

const TLS = `  nettools tls HOST [PORT] [--servername NAME] [--timeout MS] [--cert-days N] [-4|-6]
                     [--from LOCATIONS [--quorum N]]

  PORT               the TLS port (the server's default: 443)
  --servername NAME  the name sent as SNI and checked against the certificate (default: HOST when a name)
  --timeout MS       for the connection and the handshake (the server's bounds apply)
  --cert-days N      exit 1 when the server's certificate ends in fewer than N days
  -4, -6             the address family to resolve HOST to (or --ip-version 4|6)
  Prints the protocol, the cipher, whether the chain verifies, and each certificate presented. Exit 1 when
  there was no handshake, the certificate does not verify, or --cert-days is not met.
${FROM}
${QUORUM}`;

const HTTP = `  nettools http URL [--expect-status 200,301] [--follow N] [--head] [--timeout MS] [-4|-6]
                     [--from LOCATIONS [--quorum N]]

  --expect-status L  the statuses that pass, a comma list (default: any below 400)
  --follow N         redirects to follow, 0 to 5 (the server's default: 0)
  --head             HEAD instead of GET
  --timeout MS       for the whole check, redirects included (100 to 30000, default 10000)
  -4, -6             the address family to resolve the URL's host to (or --ip-version 4|6)
  Prints the status, each redirect, and a line of timings as curl -w writes them (seconds from the start
  of the last exchange: time_namelookup, time_connect, time_appconnect, time_starttransfer, time_total).
  Exit 1 when no answer came (refused, unreachable, timeout, a failed handshake or a certificate that
  does not verify) or its status is not expected.
${FROM}
${QUORUM}`;

export const COMMAND_USAGE: Record<string, string> = { ping: PING, dns: DNS, trace: TRACE, mtr: MTR, tcp: TCP, tls: TLS, http: HTTP, locations: LOCATIONS };

export const USAGE = `Usage:
${PING.split('\n').slice(0, 2).join('\n')}
${DNS.split('\n').slice(0, 2).join('\n')}
${TRACE.split('\n').slice(0, 2).join('\n')}
${MTR.split('\n').slice(0, 2).join('\n')}
${TCP.split('\n').slice(0, 2).join('\n')}
${TLS.split('\n').slice(0, 2).join('\n')}
${HTTP.split('\n')[0]}
${LOCATIONS.split('\n')[0]}

Run \`nettools COMMAND --help\` for a command's own options.

${COMMON}

${EXIT_STATUS}`;

export function commandHelp(command: string): string {
  return `Usage:\n${COMMAND_USAGE[command]}\n\n${COMMON}\n\n${EXIT_STATUS}`;
}

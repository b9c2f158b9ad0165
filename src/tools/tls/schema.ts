import { hostProperty, ipVersionProperty, resolveMsProperty } from '../target-schema';
import { MAX_CHAIN, MAX_SANS } from './certificates';

export const TLS_LIMITS = {
  port: { minimum: 1, maximum: 65535, default: 443 },
  timeoutMs: { minimum: 100, maximum: 15_000, default: 5000 },
} as const;

export const tlsRequestSchema = {
  $id: 'TlsRequest',
  type: 'object',
  additionalProperties: false,
  required: ['host'],
  properties: {
    host: hostProperty,
    port: {
      type: 'integer',
      ...TLS_LIMITS.port,
      description: 'The port. 80, 443 and 1024..65535 are allowed; any other port below 1024 is refused (422 target-forbidden, range "port") unless the operator lists it in NETTOOLS_CHECK_PORTS.',
      examples: [443],
    },
    serverName: {
      type: 'string',
      maxLength: 253,
      // Labels of a host name; the last holds a letter, so that an IPv4 literal is no server name (RFC 6066).
      pattern: '^(?=.{1,253}$)(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\\.)*(?=[A-Za-z0-9_-]*[A-Za-z_])[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\\.?$',
      description: 'SNI, and the name the certificate is checked against. Default: the host when it is a name; for an IP literal none is sent and the certificate is checked against the address.',
      examples: ['example.com'],
    },
    timeoutMs: { type: 'integer', ...TLS_LIMITS.timeoutMs, description: 'For the connection and the handshake together, ms.', examples: [5000] },
    ipVersion: ipVersionProperty,
  },
  examples: [{ host: 'example.com', port: 443 }],
} as const;

const ms = { type: 'number', minimum: 0 } as const;

export const tlsCertificateSchema = {
  type: 'object',
  required: ['subject', 'issuer', 'sans', 'sansCount', 'serial', 'notBefore', 'notAfter', 'daysLeft', 'keyType', 'keyBits', 'sha256'],
  properties: {
    subject: { type: ['string', 'null'], description: "The subject's common name (CN), null without one." },
    issuer: { type: ['string', 'null'], description: "The issuer's common name (CN), null without one." },
    sans: { type: 'array', maxItems: MAX_SANS, items: { type: 'string' }, description: `The subject alternative names as OpenSSL writes them, e.g. "DNS:example.com", "IP Address:192.0.2.1"; the first ${MAX_SANS}.` },
    sansCount: { type: 'integer', minimum: 0, description: 'How many subject alternative names the certificate has (more than `sans` lists when above its cap).' },
    serial: { type: 'string', description: 'The serial number, hexadecimal.' },
    notBefore: { type: 'string', format: 'date-time', description: 'Start of validity (UTC).' },
    notAfter: { type: 'string', format: 'date-time', description: 'End of validity (UTC).' },
    daysLeft: { type: 'integer', description: 'Whole days from the check to notAfter, rounded down; negative once expired.' },
    keyType: { type: ['string', 'null'], description: 'The public key type: rsa, ec, ed25519, ...' },
    keyBits: { type: ['integer', 'null'], description: 'RSA modulus or EC curve size in bits.' },
    sha256: { type: 'string', description: 'SHA-256 fingerprint of the certificate (DER), colon-separated hexadecimal.' },
    trustAnchor: { type: 'boolean', description: "One of this server's trust anchors (the system's or NETTOOLS_TLS_CA_FILE's): the chain ends with the anchor verification found, whether or not the server sent it. The /probe module's certificate metrics leave anchors out after the leaf, to read the chain as the server sent it." },
  },
} as const;

export const tlsResultSchema = {
  $id: 'TlsResult',
  type: 'object',
  description: 'The check ran, whatever its outcome: a refused connection, a failed handshake or a certificate that does not verify are 200s; status says how far it got.',
  required: ['host', 'address', 'ipVersion', 'port', 'serverName', 'status', 'timings', 'durationMs', 'startedAt'],
  properties: {
    host: { type: 'string', description: 'The host as asked (an IDN in its ASCII form).', examples: ['example.com'] },
    address: { type: 'string', description: 'The address connected to.', examples: ['192.0.2.10'] },
    ipVersion: { enum: [4, 6], description: 'Address family of `address`.' },
    port: { type: 'integer', minimum: 1, maximum: 65535, description: 'The port connected to.' },
    serverName: { type: ['string', 'null'], description: 'The SNI sent; null when none was (an IP literal host).' },
    status: {
      enum: ['handshake', 'refused', 'unreachable', 'timeout', 'handshake-failed', 'error'],
      description: 'handshake: completed (the session facts follow); refused: a RST answered the SYN; unreachable: an ICMP unreachable or no route; timeout: not done within timeoutMs; handshake-failed: connected, but the TLS handshake failed (not TLS there, no shared protocol, an alert), named in code; error: any other socket error.',
    },
    code: { type: 'string', description: 'Every status but handshake and timeout: the error as Node or OpenSSL names it, e.g. ECONNREFUSED, ERR_SSL_WRONG_VERSION_NUMBER, ECONNRESET.' },
    verified: { type: 'boolean', description: 'handshake only: the chain verifies against the trust store (and NETTOOLS_TLS_CA_FILE) and the certificate matches serverName (or the address).' },
    verifyError: { type: 'string', description: 'When verified is false: why, e.g. CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, DEPTH_ZERO_SELF_SIGNED_CERT, UNABLE_TO_VERIFY_LEAF_SIGNATURE.' },
    protocol: { type: 'string', description: 'handshake only: e.g. TLSv1.3.' },
    cipher: { type: 'string', description: 'handshake only: the IANA name of the cipher suite.' },
    alpn: { type: 'string', description: 'The ALPN protocol agreed, when one was (none is offered by this check, so a server rarely picks one).' },
    ocspStapled: { type: 'boolean', description: 'handshake only: the server stapled an OCSP response (one was asked for).' },
    certificates: { type: 'array', maxItems: MAX_CHAIN, items: tlsCertificateSchema, description: `handshake only: leaf first, then its issuers as sent by the server, and the trust anchor when verification found one (marked trustAnchor); at most ${MAX_CHAIN}.` },
    timings: {
      type: 'object',
      description: 'Time of each phase, ms; connectMs and handshakeMs only as far as the check got.',
      required: ['resolveMs'],
      properties: {
        resolveMs: resolveMsProperty,
        connectMs: { ...ms, description: 'From the connect call to the TCP connection established, ms.' },
        handshakeMs: { ...ms, description: 'From the connect call to the TLS handshake done, ms (connectMs included).' },
      },
    },
    durationMs: { ...ms, description: 'Time for the whole check, resolution included, ms.' },
    startedAt: { type: 'string', format: 'date-time', description: 'When the check started (UTC).' },
  },
  examples: [
    {
      host: 'example.com', address: '192.0.2.10', ipVersion: 4, port: 443, serverName: 'example.com', status: 'handshake',
      verified: true, protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384', ocspStapled: false,
      certificates: [{ subject: 'example.com', issuer: 'Example CA', sans: ['DNS:example.com'], sansCount: 1, serial: '03A1', notBefore: '2026-10-01T00:00:00.000Z', notAfter: '2026-12-30T00:00:00.000Z', daysLeft: 32, keyType: 'ec', keyBits: 256, sha256: 'AB:CD:...' }],
      timings: { resolveMs: 4.2, connectMs: 11.0, handshakeMs: 35.2 }, durationMs: 40.1, startedAt: '2026-11-27T12:00:00.000Z',
    },
  ],
} as const;

// ICMP echo wire format: building echo requests and reading whatever a socket hands back.
// Pure C++ (no Node headers) so the fuzz target links it alone; every read goes through Reader.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nettools::icmp {

enum class Family { kV4, kV6 };
enum class SocketKind { kDgram, kRaw };
enum class ReplyStatus { kReply, kTimeout, kUnreachable, kTimeExceeded };

constexpr size_t kHeaderLen = 8;
constexpr size_t kCookieLen = 8;
constexpr size_t kMaxPayload = 1400;
constexpr size_t kMaxEchoLen = kHeaderLen + kMaxPayload;

struct EchoSpec {
  Family family;
  uint16_t id;   // ignored by the kernel on datagram sockets, which writes its own
  uint16_t seq;
  const uint8_t* cookie;  // kCookieLen bytes; only as much as fits in the payload is written
  size_t payload_len;     // 0..kMaxPayload
};

// Writes header + payload into out (capacity cap). Returns the length, or 0 when it does not fit.
// IPv4 carries our checksum; for ICMPv6 the kernel computes it over the pseudo-header.
size_t BuildEcho(const EchoSpec& spec, uint8_t* out, size_t cap);

// RFC 1071 Internet checksum; an odd trailing byte is padded with zero.
uint16_t InternetChecksum(const uint8_t* data, size_t len);

enum class PacketKind { kIgnore, kEchoReply, kError };

struct ParsedPacket {
  PacketKind kind = PacketKind::kIgnore;
  uint16_t id = 0;
  uint16_t seq = 0;
  size_t icmp_len = 0;  // ICMP message bytes (header + payload) as received
  bool has_ttl = false;
  uint8_t ttl = 0;      // only raw IPv4 delivers the IP header; others get it from a control message
  uint8_t cookie[kCookieLen] = {};
  size_t cookie_len = 0;  // payload bytes available for the cookie comparison (<= kCookieLen)
  uint8_t err_type = 0;
  uint8_t err_code = 0;
  bool has_quoted_dst = false;
  uint8_t quoted_dst[16] = {};  // where the quoted original echo was going (4 bytes for IPv4)
};

// Parses what recvmsg returned on a socket of this family and kind.
ParsedPacket ParsePacket(Family family, SocketKind kind, const uint8_t* data, size_t len);

// Parses an echo request we sent, as the datagram error queue hands it back (kind kError, type/code unset).
ParsedPacket ParseSentEcho(Family family, const uint8_t* data, size_t len);

struct ErrorMeaning {
  ReplyStatus status;  // kUnreachable or kTimeExceeded
  const char* reason;
};

// Maps an ICMP / ICMPv6 error type and code to what the API reports.
ErrorMeaning ClassifyError(Family family, uint8_t type, uint8_t code);

// Whether the parsed payload carries the cookie we sent (only as much as both sides have room for).
bool CookieMatches(const ParsedPacket& p, const uint8_t* cookie, size_t sent_payload_len);

}  // namespace nettools::icmp

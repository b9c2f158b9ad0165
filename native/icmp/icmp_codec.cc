#include "icmp/icmp_codec.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "common/reader.h"

namespace nettools::icmp {

namespace {

constexpr uint8_t kV4EchoReply = 0;
constexpr uint8_t kV4DestUnreach = 3;
constexpr uint8_t kV4EchoRequest = 8;
constexpr uint8_t kV4TimeExceeded = 11;
constexpr uint8_t kV4ParamProblem = 12;
constexpr uint8_t kV6DestUnreach = 1;
constexpr uint8_t kV6PacketTooBig = 2;
constexpr uint8_t kV6TimeExceeded = 3;
constexpr uint8_t kV6ParamProblem = 4;
constexpr uint8_t kV6EchoRequest = 128;
constexpr uint8_t kV6EchoReply = 129;
constexpr uint8_t kProtoIcmp = 1;
constexpr uint8_t kProtoIcmpV6 = 58;

void Put16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v & 0xff);
}

// Reads an IPv4 header (variable IHL); leaves r at its payload.
bool ReadIpv4Header(Reader& r, uint8_t* ttl, uint8_t* proto, uint8_t dst[4]) {
  uint8_t vihl = 0;
  if (!r.u8(&vihl) || (vihl >> 4) != 4) return false;
  size_t ihl = static_cast<size_t>(vihl & 0x0f) * 4;
  if (ihl < 20) return false;
  uint8_t src[4];
  if (!r.skip(7) || !r.u8(ttl) || !r.u8(proto) || !r.skip(2) || !r.copy(4, src) || !r.copy(4, dst)) return false;
  return r.skip(ihl - 20);
}

// Reads the echo header and the cookie bytes that follow it, if the type is the one we want.
bool ReadEcho(Reader& r, uint8_t want_type, ParsedPacket* p) {
  uint8_t type = 0, code = 0;
  uint16_t sum = 0;
  if (!r.u8(&type) || type != want_type || !r.u8(&code) || !r.u16(&sum) || !r.u16(&p->id) || !r.u16(&p->seq)) {
    return false;
  }
  p->cookie_len = r.remaining() < kCookieLen ? r.remaining() : kCookieLen;
  return r.copy(p->cookie_len, p->cookie);
}

// The original packet an IPv4 error quotes: IP header + at least 8 bytes of our echo request.
bool ReadQuotedV4(Reader& r, ParsedPacket* p) {
  uint8_t ttl = 0, proto = 0;
  if (!ReadIpv4Header(r, &ttl, &proto, p->quoted_dst) || proto != kProtoIcmp) return false;
  p->has_quoted_dst = true;
  return ReadEcho(r, kV4EchoRequest, p);
}

// The original packet an ICMPv6 error quotes: fixed IPv6 header (we send no extension headers) + echo.
bool ReadQuotedV6(Reader& r, ParsedPacket* p) {
  uint8_t vtc = 0, next = 0;
  if (!r.u8(&vtc) || (vtc >> 4) != 6 || !r.skip(5) || !r.u8(&next) || next != kProtoIcmpV6 || !r.skip(1 + 16) ||
      !r.copy(16, p->quoted_dst)) {
    return false;
  }
  p->has_quoted_dst = true;
  return ReadEcho(r, kV6EchoRequest, p);
}

bool IsError(Family family, uint8_t type) {
  if (family == Family::kV4) {
    return type == kV4DestUnreach || type == kV4TimeExceeded || type == kV4ParamProblem;
  }
  return type == kV6DestUnreach || type == kV6PacketTooBig || type == kV6TimeExceeded || type == kV6ParamProblem;
}

ParsedPacket ParseIcmp(Family family, Reader r, ParsedPacket p) {
  const size_t icmp_len = r.remaining();
  Reader peek = r;
  uint8_t type = 0, code = 0;
  if (!peek.u8(&type) || !peek.u8(&code)) return ParsedPacket{};
  const uint8_t reply_type = family == Family::kV4 ? kV4EchoReply : kV6EchoReply;
  if (type == reply_type) {
    if (!ReadEcho(r, reply_type, &p)) return ParsedPacket{};
    p.kind = PacketKind::kEchoReply;
    p.icmp_len = icmp_len;
    return p;
  }
  if (!IsError(family, type)) return ParsedPacket{};
  // type, code, checksum, then 4 bytes (unused / MTU / pointer) before the quoted packet.
  if (!r.skip(8)) return ParsedPacket{};
  const bool ok = family == Family::kV4 ? ReadQuotedV4(r, &p) : ReadQuotedV6(r, &p);
  if (!ok) return ParsedPacket{};
  p.kind = PacketKind::kError;
  p.err_type = type;
  p.err_code = code;
  p.icmp_len = icmp_len;
  return p;
}

const char* V4UnreachReason(uint8_t code) {
  static const char* const kReasons[] = {
      "net-unreachable",      "host-unreachable",     "protocol-unreachable",     "port-unreachable",
      "fragmentation-needed", "source-route-failed",  "net-unknown",              "host-unknown",
      "source-host-isolated", "net-prohibited",       "host-prohibited",          "net-tos-unreachable",
      "host-tos-unreachable", "admin-prohibited",     "host-precedence-violation", "precedence-cutoff",
  };
  return code < sizeof(kReasons) / sizeof(kReasons[0]) ? kReasons[code] : "unreachable";
}

const char* V6UnreachReason(uint8_t code) {
  static const char* const kReasons[] = {
      "no-route",         "admin-prohibited",     "beyond-scope", "address-unreachable",
      "port-unreachable", "source-policy-failed", "reject-route",
  };
  return code < sizeof(kReasons) / sizeof(kReasons[0]) ? kReasons[code] : "unreachable";
}

}  // namespace

uint16_t InternetChecksum(const uint8_t* data, size_t len) {
  uint32_t sum = 0;
  size_t i = 0;
  for (; i + 1 < len; i += 2) sum += static_cast<uint32_t>((data[i] << 8) | data[i + 1]);
  if (i < len) sum += static_cast<uint32_t>(data[i] << 8);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum & 0xffff);
}

// The payload after the cookie: byte i is i & 0xff, a pattern that makes captures easy to read. One
// period of it, copied as often as the payload needs: a byte at a time with a test for the cookie, the
// loop cost every echo more than its checksum.
constexpr std::array<uint8_t, 256> kPattern = [] {
  std::array<uint8_t, 256> p{};
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<uint8_t>(i);
  return p;
}();

size_t BuildEcho(const EchoSpec& spec, uint8_t* out, size_t cap) {
  if (spec.payload_len > kMaxPayload) return 0;
  const size_t len = kHeaderLen + spec.payload_len;
  if (len > cap) return 0;
  out[0] = spec.family == Family::kV4 ? kV4EchoRequest : kV6EchoRequest;
  out[1] = 0;
  Put16(out + 2, 0);
  Put16(out + 4, spec.id);
  Put16(out + 6, spec.seq);
  uint8_t* payload = out + kHeaderLen;
  // The cookie first, as much of it as fits.
  const size_t cookie = std::min(spec.payload_len, kCookieLen);
  std::memcpy(payload, spec.cookie, cookie);
  for (size_t i = cookie; i < spec.payload_len;) {
    const size_t from = i & 0xff;
    const size_t n = std::min(spec.payload_len - i, kPattern.size() - from);
    std::memcpy(payload + i, kPattern.data() + from, n);
    i += n;
  }
  if (spec.family == Family::kV4) Put16(out + 2, InternetChecksum(out, len));
  return len;
}

ParsedPacket ParsePacket(Family family, SocketKind kind, const uint8_t* data, size_t len) {
  Reader r(data, len);
  ParsedPacket p;
  if (family == Family::kV4 && kind == SocketKind::kRaw) {
    uint8_t ttl = 0, proto = 0, dst[4];
    if (!ReadIpv4Header(r, &ttl, &proto, dst) || proto != kProtoIcmp) return ParsedPacket{};
    p.has_ttl = true;
    p.ttl = ttl;
  }
  return ParseIcmp(family, r, p);
}

ParsedPacket ParseSentEcho(Family family, const uint8_t* data, size_t len) {
  Reader r(data, len);
  ParsedPacket p;
  if (!ReadEcho(r, family == Family::kV4 ? kV4EchoRequest : kV6EchoRequest, &p)) return ParsedPacket{};
  p.kind = PacketKind::kError;
  p.icmp_len = len;
  return p;
}

ErrorMeaning ClassifyError(Family family, uint8_t type, uint8_t code) {
  if (family == Family::kV4) {
    switch (type) {
      case kV4DestUnreach: return {ReplyStatus::kUnreachable, V4UnreachReason(code)};
      case kV4TimeExceeded:
        return {ReplyStatus::kTimeExceeded, code == 1 ? "fragment-reassembly-exceeded" : "ttl-exceeded"};
      case kV4ParamProblem: return {ReplyStatus::kUnreachable, "parameter-problem"};
      default: return {ReplyStatus::kUnreachable, "unreachable"};
    }
  }
  switch (type) {
    case kV6DestUnreach: return {ReplyStatus::kUnreachable, V6UnreachReason(code)};
    case kV6PacketTooBig: return {ReplyStatus::kUnreachable, "packet-too-big"};
    case kV6TimeExceeded:
      return {ReplyStatus::kTimeExceeded, code == 1 ? "fragment-reassembly-exceeded" : "hop-limit-exceeded"};
    case kV6ParamProblem: return {ReplyStatus::kUnreachable, "parameter-problem"};
    default: return {ReplyStatus::kUnreachable, "unreachable"};
  }
}

bool CookieMatches(const ParsedPacket& p, const uint8_t* cookie, size_t sent_payload_len) {
  const size_t want = sent_payload_len < kCookieLen ? sent_payload_len : kCookieLen;
  // An error may quote less than we sent; a reply must carry all of it.
  const size_t n = p.kind == PacketKind::kError && p.cookie_len < want ? p.cookie_len : want;
  if (p.kind == PacketKind::kEchoReply && p.cookie_len < want) return false;
  for (size_t i = 0; i < n; ++i) {
    if (p.cookie[i] != cookie[i]) return false;
  }
  return true;
}

}  // namespace nettools::icmp

// Feeds arbitrary bytes to every ICMP parser the engine uses (all socket kinds and families, and the
// error-queue path), and checks that an echo we build parses back to what we built.
// fuzz-sources: icmp/icmp_codec.cc
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "icmp/icmp_codec.h"

using namespace nettools::icmp;

namespace {

void ParseEverywhere(const uint8_t* data, size_t size) {
  static const uint8_t kCookie[kCookieLen] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (Family f : {Family::kV4, Family::kV6}) {
    for (SocketKind k : {SocketKind::kDgram, SocketKind::kRaw}) {
      const ParsedPacket p = ParsePacket(f, k, data, size);
      if (p.kind == PacketKind::kError) {
        const ErrorMeaning m = ClassifyError(f, p.err_type, p.err_code);
        if (m.reason == nullptr || std::strlen(m.reason) == 0) std::abort();
      }
      if (p.cookie_len > kCookieLen || p.icmp_len > size) std::abort();
      (void)CookieMatches(p, kCookie, size % (kMaxPayload + 1));
    }
    const ParsedPacket sent = ParseSentEcho(f, data, size);
    if (sent.kind != PacketKind::kIgnore && sent.icmp_len != size) std::abort();
  }
}

// The first bytes choose an echo to build; it must parse back identically as a reply would.
void RoundTrip(const uint8_t* data, size_t size) {
  if (size < 6) return;
  const Family f = (data[0] & 1) ? Family::kV6 : Family::kV4;
  const uint16_t id = static_cast<uint16_t>((data[1] << 8) | data[2]);
  const uint16_t seq = static_cast<uint16_t>((data[3] << 8) | data[4]);
  const size_t payload = (static_cast<size_t>(data[5]) * 7) % (kMaxPayload + 1);
  uint8_t cookie[kCookieLen] = {};
  for (size_t i = 0; i < kCookieLen && 6 + i < size; ++i) cookie[i] = data[6 + i];
  uint8_t pkt[kMaxEchoLen];
  const EchoSpec spec{f, id, seq, cookie, payload};
  const size_t len = BuildEcho(spec, pkt, sizeof(pkt));
  if (len != kHeaderLen + payload) std::abort();
  if (f == Family::kV4 && InternetChecksum(pkt, len) != 0) std::abort();
  const ParsedPacket back = ParseSentEcho(f, pkt, len);
  if (back.kind != PacketKind::kError || back.id != id || back.seq != seq) std::abort();
  if (!CookieMatches(back, cookie, payload)) std::abort();
  // The same bytes turned into a reply (type 0 / 129) parse as an echo reply on a datagram socket.
  pkt[0] = f == Family::kV4 ? 0 : 129;
  const ParsedPacket reply = ParsePacket(f, SocketKind::kDgram, pkt, len);
  if (reply.kind != PacketKind::kEchoReply || reply.id != id || reply.seq != seq || reply.icmp_len != len) std::abort();
  if (!CookieMatches(reply, cookie, payload)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ParseEverywhere(data, size);
  RoundTrip(data, size);
  return 0;
}

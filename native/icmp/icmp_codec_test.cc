// One case per rule of building an echo request (icmp_codec.cc, BuildEcho), each over every payload
// length, against the rule written out a byte at a time. Prints "ok <name>" or "not ok <name>: <why>" per
// case and exits 1 if any failed. Built and run by test/icmp/echo-build.test.ts; by hand, from the
// repository root:
//   g++ -std=c++17 -Wall -Wextra -Werror -Inative native/icmp/icmp_codec{_test,}.cc
#include <string>
#include <vector>

#include "icmp/icmp_codec.h"
#include "testing/rule_cases.h"

using nettools::icmp::BuildEcho;
using nettools::icmp::EchoSpec;
using nettools::icmp::Family;
using nettools::icmp::InternetChecksum;
using nettools::icmp::kCookieLen;
using nettools::icmp::kHeaderLen;
using nettools::icmp::kMaxEchoLen;
using nettools::icmp::kMaxPayload;

namespace {

const uint8_t kCookie[kCookieLen] = {0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04};

std::vector<uint8_t> Build(Family family, size_t payload_len, size_t cap = kMaxEchoLen) {
  std::vector<uint8_t> out(cap + 1, 0xaa);  // one byte past cap, which must stay as it was
  const EchoSpec spec{family, 0x1234, 0xbeef, kCookie, payload_len};
  const size_t len = BuildEcho(spec, out.data(), cap);
  if (out[cap] != 0xaa) return {};
  out.resize(len);
  return out;
}

std::string At(const char* what, size_t payload_len, size_t i) {
  return std::string(what) + " at byte " + std::to_string(i) + " of a " + std::to_string(payload_len) + "-byte payload";
}

// Byte i of the payload: the cookie's, while it lasts, then i & 0xff.
std::string PayloadIsTheCookieThenTheCountingPattern() {
  for (const Family family : {Family::kV4, Family::kV6}) {
    for (size_t n = 0; n <= kMaxPayload; ++n) {
      const std::vector<uint8_t> pkt = Build(family, n);
      if (pkt.size() != kHeaderLen + n) return "length " + std::to_string(pkt.size()) + " for a " + std::to_string(n) + "-byte payload";
      for (size_t i = 0; i < n; ++i) {
        const uint8_t want = i < kCookieLen ? kCookie[i] : static_cast<uint8_t>(i & 0xff);
        if (pkt[kHeaderLen + i] != want) return At("wrong payload", n, i);
      }
    }
  }
  return "";
}

std::string HeaderCarriesTypeIdAndSeq() {
  const std::vector<uint8_t> v4 = Build(Family::kV4, 56);
  const std::vector<uint8_t> v6 = Build(Family::kV6, 56);
  if (v4[0] != 8 || v4[1] != 0) return "IPv4 type/code";
  if (v6[0] != 128 || v6[1] != 0) return "IPv6 type/code";
  for (const auto* p : {&v4, &v6}) {
    if ((*p)[4] != 0x12 || (*p)[5] != 0x34 || (*p)[6] != 0xbe || (*p)[7] != 0xef) return "id or seq";
  }
  return "";
}

// A packet whose checksum is right sums to zero, its checksum field included.
std::string V4ChecksumIsRightForEveryLength() {
  for (size_t n = 0; n <= kMaxPayload; ++n) {
    const std::vector<uint8_t> pkt = Build(Family::kV4, n);
    if (InternetChecksum(pkt.data(), pkt.size()) != 0) return "checksum does not verify for a " + std::to_string(n) + "-byte payload";
  }
  return "";
}

// The kernel computes ICMPv6's over the pseudo-header.
std::string V6LeavesTheChecksumToTheKernel() {
  for (const size_t n : {size_t{0}, size_t{56}, kMaxPayload}) {
    const std::vector<uint8_t> pkt = Build(Family::kV6, n);
    if (pkt[2] != 0 || pkt[3] != 0) return "checksum field set for a " + std::to_string(n) + "-byte payload";
  }
  return "";
}

std::string WhatDoesNotFitBuildsNothing() {
  if (!Build(Family::kV4, kMaxPayload + 1).empty()) return "a payload over the maximum was built";
  if (!Build(Family::kV4, 56, kHeaderLen + 55).empty()) return "a packet over the buffer was built";
  if (Build(Family::kV4, 56, kHeaderLen + 56).size() != kHeaderLen + 56) return "a packet that just fits was not built";
  return "";
}

}  // namespace

int main() {
  const nettools::testing::RuleCase cases[] = {
      {"payload-is-the-cookie-then-the-counting-pattern", PayloadIsTheCookieThenTheCountingPattern},
      {"header-carries-type-id-and-seq", HeaderCarriesTypeIdAndSeq},
      {"v4-checksum-is-right-for-every-length", V4ChecksumIsRightForEveryLength},
      {"v6-leaves-the-checksum-to-the-kernel", V6LeavesTheChecksumToTheKernel},
      {"what-does-not-fit-builds-nothing", WhatDoesNotFitBuildsNothing},
  };
  return nettools::testing::RunRules(cases);
}

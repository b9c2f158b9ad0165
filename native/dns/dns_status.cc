#include "dns/dns_status.h"

namespace nettools::dns {

namespace {

constexpr const char* kCodes[] = {
    "ok",
    "truncated-message",
    "bad-label-type",
    "name-too-long",
    "bad-compression-pointer",
    "compression-chain-too-long",
    "bad-section-counts",
    "bad-rdata",
    "invalid-name",
    "invalid-type",
    "invalid-address",
    "random-unavailable",
    "timeout",
    "connection-refused",
    "connection-closed",
    "network-error",
    "cancelled",
    "engine-closed",
    "invalid-argument",
};

static_assert(sizeof(kCodes) / sizeof(kCodes[0]) == static_cast<int>(Status::kCount),
              "every Status needs exactly one code");

}  // namespace

const char* StatusCode(Status s) {
  int i = static_cast<int>(s);
  if (i < 0 || i >= static_cast<int>(Status::kCount)) return "unknown";
  return kCodes[i];
}

bool IsWireError(Status s) { return s >= Status::kTruncated && s <= Status::kBadRdata; }

}  // namespace nettools::dns

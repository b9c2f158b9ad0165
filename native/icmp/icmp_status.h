// Every failure the ICMP engine reports: one enum, one string table (stable codes and default messages).
#pragma once

namespace nettools::icmp {

enum class Status : int {
  kOk = 0,
  kNoSocket,           // neither a datagram nor a raw socket opens for the family
  kInvalidAddress,     // not the 4 or 16 bytes of the requested family (or an IPv4-mapped IPv6)
  kInvalidOptions,     // an option is missing or out of the engine's range
  kSeqExhausted,       // every 16-bit sequence number of the socket is in flight
  kEngineClosed,       // the engine was closed
  kNoEventLoop,        // the JavaScript environment has no libuv loop to run on
  kRandomUnavailable,  // the kernel CSPRNG is not seeded yet (early boot)
  kCount,              // keep last: sizes the string table
};

// Stable kebab-case codes, exposed to JS as `code`.
const char* StatusCode(Status s);
// What a JS error says when its thrower has nothing more precise.
const char* StatusMessage(Status s);

}  // namespace nettools::icmp

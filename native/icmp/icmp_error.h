// Every failure the ICMP engine reports: one enum, one string table (codes and messages).
#pragma once

namespace nettools {
namespace icmp {

enum class IcmpError {
  kOk = 0,
  kNoSocket,       // neither a datagram nor a raw socket opens for the family
  kBadAddress,     // not an IP literal of the requested family
  kBadOptions,     // an option is missing or out of range
  kSeqExhausted,   // every 16-bit sequence number of the socket is in flight
  kClosed,         // the engine was closed
  kNoEventLoop,    // the JavaScript environment has no libuv loop to run on
  kCount,
};

// Stable code handed to JavaScript as error.code, e.g. "ICMP_NO_SOCKET".
const char* IcmpErrorCode(IcmpError e);
// Human-readable default message.
const char* IcmpErrorMessage(IcmpError e);

}  // namespace icmp
}  // namespace nettools

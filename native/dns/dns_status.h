// Every outcome the DNS code can report, wire and transport alike: one enum, one string table (stable
// codes and default messages).
#pragma once

namespace nettools::dns {

enum class Status : int {
  kOk = 0,
  // Wire format: the message cannot be trusted as a whole.
  kTruncated,
  kBadLabelType,
  kNameTooLong,
  kBadPointer,
  kPointerChainTooLong,
  kBadCounts,
  kBadRdata,
  // Building a query.
  kInvalidName,
  kInvalidType,
  kInvalidAddress,
  kRandomUnavailable,
  // Transport.
  kTimeout,
  kConnectionRefused,
  kConnectionClosed,
  kNetworkError,
  // DoT: the connection's TLS, before any answer.
  kTlsHandshakeFailed,
  kTlsCertificateInvalid,
  kTlsUnavailable,  // no TLS context (the trust anchors could not be loaded)
  kCancelled,
  // Engine.
  kEngineClosed,
  kNoEventLoop,  // the JavaScript environment has no libuv loop to run on
  kInvalidArgument,
  kCount,  // keep last: sizes the string table
};

// Stable kebab-case codes, exposed to JS as `code`.
const char* StatusCode(Status s);
// What a JS error says when its thrower has nothing more precise.
const char* StatusMessage(Status s);

// Wire errors are reported to API users as one `malformed` error with the precise code as detail.
bool IsWireError(Status s);

}  // namespace nettools::dns

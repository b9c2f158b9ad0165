// The HTTP exchange engine's own errors (a misuse of the binding), as codes: an exchange's outcome is
// never one of these, it is data in its result.
#pragma once

namespace nettools::http {

enum class Status : int {
  kOk = 0,
  kInvalidArgument,  // an argument is missing, of the wrong type, or out of http_limits.h
  kEngineClosed,     // the engine was closed
  kNoEventLoop,      // the JavaScript environment has no libuv loop to run on
  kNoTrustAnchors,   // no certificate could be read from the PEM text the engine was given
  kCount,            // keep last: sizes the string table
};

const char* StatusCode(Status s);
const char* StatusMessage(Status s);

}  // namespace nettools::http

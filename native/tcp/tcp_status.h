// Every failure the TCP connect engine reports as a JS error: one enum, one string table. The outcome of
// an attempt (refused, timeout, ...) is data, never one of these.
#pragma once

namespace nettools::tcp {

enum class Status : int {
  kOk = 0,
  kInvalidArgument,  // an argument is missing, of the wrong type, or out of tcp_limits.h
  kEngineClosed,     // the engine was closed
  kNoEventLoop,      // the JavaScript environment has no libuv loop to run on
  kCount,            // keep last: sizes the string table
};

const char* StatusCode(Status s);
const char* StatusMessage(Status s);

}  // namespace nettools::tcp

// The JS face of the TCP connect engine: class TcpEngine { constructor(); connect(address, family, port,
// timeoutMs, done): id; cancel(id); close(); inFlight() }, and TcpEngine.limits. Arguments are validated
// in TypeScript; this converts plain data.
#pragma once

#include <napi.h>

namespace nettools::tcp {

Napi::Function DefineTcpEngine(Napi::Env env);

}  // namespace nettools::tcp

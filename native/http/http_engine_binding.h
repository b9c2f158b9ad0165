// The JS face of the HTTP exchange engine: class HttpEngine { constructor(pem); exchange(address, family,
// port, timeoutMs, tls, serverName, verify, request, headRequest, bodyMax, done): id; cancel(id); close();
// inFlight() }, and HttpEngine.limits. Arguments are validated in TypeScript; this converts plain data.
#pragma once

#include <napi.h>

namespace nettools::http {

Napi::Function DefineHttpEngine(Napi::Env env);

}  // namespace nettools::http

// The JS face of the ICMP engine: class IcmpEngine { constructor({kind}); ping(options, cb): id; cancel(id);
// socketKinds(); stats(); close() }. Options are validated in TypeScript; this converts plain data.
#pragma once

#include <napi.h>

namespace nettools::icmp {

Napi::Function DefineIcmpEngine(Napi::Env env);

}  // namespace nettools::icmp

// The JS face of the DNS engine: class DnsEngine { queryMany(name, types, resolvers, timeoutMs, cb): id; cancel(id); counters(); close() }.
#pragma once

#include <napi.h>

namespace nettools::dns {

Napi::Function DefineDnsEngine(Napi::Env env);

}  // namespace nettools::dns

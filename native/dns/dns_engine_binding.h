// The JS face of the DNS engine: class DnsEngine { queryMany(spec, cb): id; cancel(id); counters(); close() }.
#pragma once

#include <napi.h>

namespace nettools::dns {

Napi::Function DefineDnsEngine(Napi::Env env);

}  // namespace nettools::dns

// Registers the addon's exports: its own version() and capabilities(), and one class per engine, which
// the engine's binding defines.
#include <napi.h>

#include <cstring>

#include "common/socket_probe.h"
#include "turn_end.h"
#include "worker_teardown.h"
#include "dns/dns_engine_binding.h"
#include "http/http_engine_binding.h"
#include "icmp/icmp_engine_binding.h"
#include "tcp/tcp_engine_binding.h"

namespace nettools {

namespace {

Napi::Value ErrnoOrTrue(Napi::Env env, int err) {
  if (err == 0) return Napi::Boolean::New(env, true);
  return Napi::String::New(env, std::strerror(err));
}

Napi::Object SocketKinds(Napi::Env env, int dgram, int raw) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("dgram", ErrnoOrTrue(env, dgram));
  o.Set("raw", ErrnoOrTrue(env, raw));
  return o;
}

}  // namespace

class Addon : public Napi::Addon<Addon> {
 public:
  Addon(Napi::Env env, Napi::Object exports) {
    DefineAddon(exports, {
                             InstanceMethod("version", &Addon::Version),
                             InstanceMethod("capabilities", &Addon::Capabilities),
                         });
    // Worker threads call it at start (src/workers/worker-entry.ts).
    exports.Set("closeStrayPollsAtTeardown", Napi::Function::New(env, CloseStrayPollsAtTeardown));
    // Each engine defines its own class; registering it is all this file does.
    exports.Set("IcmpEngine", icmp::DefineIcmpEngine(env));
    exports.Set("DnsEngine", dns::DefineDnsEngine(env));
    exports.Set("TcpEngine", tcp::DefineTcpEngine(env));
    exports.Set("HttpEngine", http::DefineHttpEngine(env));
    // The HTTP layer's end-of-turn writes (src/http/write-batch.ts).
    exports.Set("TurnEnd", DefineTurnEnd(env));
  }

 private:
  Napi::Value Version(const Napi::CallbackInfo& info) {
    return Napi::String::New(info.Env(), NETTOOLS_ADDON_VERSION);
  }

  // Probed on every call: ping_group_range and capabilities can change while we run.
  Napi::Value Capabilities(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    SocketSupport s = ProbeIcmpSockets();
    Napi::Object kinds = Napi::Object::New(env);
    kinds.Set("v4", SocketKinds(env, s.dgram_v4, s.raw_v4));
    kinds.Set("v6", SocketKinds(env, s.dgram_v6, s.raw_v6));
    Napi::Object out = Napi::Object::New(env);
    out.Set("icmp", kinds);
    return out;
  }
};

}  // namespace nettools

using NettoolsAddon = nettools::Addon;
NODE_API_ADDON(NettoolsAddon)

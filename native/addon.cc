// Registers the addon's exports: its own version() and capabilities(), and one class per engine, which
// the engine's binding defines.
#include <napi.h>

#include <cstring>

#include "common/errno_name.h"
#include "common/port_claim.h"
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

// claimTcpPort(host, port): the port bound (the kernel's pick for 0), or the errno's name.
Napi::Value ClaimTcpPortJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsString() || !info[1].IsNumber()) {
    throw Napi::TypeError::New(env, "claimTcpPort(host, port) expects an IP literal and a port");
  }
  const uint32_t port = info[1].As<Napi::Number>().Uint32Value();
  if (port > 65535) throw Napi::RangeError::New(env, "port must be 0 to 65535");
  const PortClaim claim = ClaimTcpPort(info[0].As<Napi::String>().Utf8Value().c_str(), static_cast<uint16_t>(port));
  if (claim.error != 0) return Napi::String::New(env, ErrnoName(claim.error));
  return Napi::Number::New(env, claim.port);
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
    // The server's check of its port before it listens (src/http/port-owner.ts).
    exports.Set("claimTcpPort", Napi::Function::New(env, ClaimTcpPortJs));
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

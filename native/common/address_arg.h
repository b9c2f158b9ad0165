// An address as the engines take it from JS: its 4 or 16 bytes in a Uint8Array and its family beside them
// (TypeScript parsed the text once; no text is parsed here).
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstdint>

#include "common/args.h"
#include "common/ip_bytes.h"

namespace nettools {

template <typename S>
IpBytes AddressArg(const Args<S>& args, size_t bytes_at, size_t family_at) {
  const Napi::Value v = args[bytes_at];
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    throw args.Invalid("address must be a Uint8Array of 4 or 16 bytes");
  }
  const Napi::Uint8Array bytes = v.As<Napi::Uint8Array>();
  const uint32_t family = args.Uint(family_at, "family");
  const IpBytes address = IpBytes::Of(bytes.Data(), bytes.ElementLength());
  if (address.empty() || address.size != (family == 4 ? 4 : family == 6 ? 16 : 0)) {
    throw args.Invalid("address must be the 4 (family 4) or 16 (family 6) bytes of one address");
  }
  return address;
}

}  // namespace nettools

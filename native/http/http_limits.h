// The ranges the HTTP exchange engine accepts, exported as HttpEngine.limits; the http tool stays within
// them.
#pragma once

#include "common/range.h"

namespace nettools::http::limits {

inline constexpr Range kPort{1, 65535};
inline constexpr Range kTimeoutMs{1, 60000};
inline constexpr Range kRequestBytes{16, 16384};        // the request head the tool builds
inline constexpr Range kBodyMaxBytes{1, 1073741824};   // NETTOOLS_HTTP_BODY_MAX_BYTES
inline constexpr Range kServerNameBytes{0, 253};

}  // namespace nettools::http::limits

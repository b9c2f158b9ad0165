// The ranges the TCP engine accepts, exported as TcpEngine.limits; the tcp tool's schema stays within them.
#pragma once

#include "common/range.h"

namespace nettools::tcp::limits {

inline constexpr Range kPort{1, 65535};
inline constexpr Range kTimeoutMs{1, 60000};

}  // namespace nettools::tcp::limits

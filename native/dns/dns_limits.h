// The range of each DNS engine option, defined here only: the binding exports them to JS as
// `DnsEngine.limits`, src/engines/dns/native.ts reads them (the window share per worker thread), and
// the binding refuses anything outside them.
#pragma once

#include <cstddef>

#include "common/range.h"
#include "dns/dns_resolver_window.h"

namespace nettools::dns::limits {

// Queries one engine may have on the wire to one resolver at once (its share of the window when each
// worker thread has an engine).
constexpr Range kWindowPerResolver{1, ResolverWindow::kMaxInFlight};

// Distinct resolvers one engine knows (DnsEngine.endpoint): the configured ones, a few of them; the bound
// keeps a caller that makes endpoints without end from growing the table.
constexpr size_t kEndpoints = 1024;

}  // namespace nettools::dns::limits

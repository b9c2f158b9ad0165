// Text forms of RDATA bytes for the API: hex (DS digest, TLSA data, unknown SvcParams: common/hex_text.h),
// base64 (DNSKEY key, ECH config), and names of the newer record types.
#pragma once

#include <string>
#include <vector>

#include "common/hex_text.h"
#include "dns/dns_name.h"

namespace nettools::dns {

// RFC 4648 base64 with padding, as zone files and kdig show keys.
std::string Base64Text(const std::string& bytes);

// An alpn SvcParam's value as its protocol ids; a length running past the value ends the list.
std::vector<std::string> AlpnIds(const std::string& value);

// NameToText, except that the root is "." (an SVCB target or NAPTR replacement of "." means something);
// MX, PTR and CNAME keep NameToText's empty root as they always had.
std::string RdataNameText(const Name& name);

}  // namespace nettools::dns

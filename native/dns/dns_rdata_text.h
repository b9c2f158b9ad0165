// Text forms of RDATA bytes for the API: hex (DS digest, TLSA data, unknown SvcParams), base64 (DNSKEY
// key, ECH config), and names of the newer record types.
#pragma once

#include <string>
#include <vector>

#include "dns/dns_name.h"

namespace nettools::dns {

// Lower-case hex, two digits a byte.
std::string HexText(const std::string& bytes);

// RFC 4648 base64 with padding, as zone files and kdig show keys.
std::string Base64Text(const std::string& bytes);

// An alpn SvcParam's value as its protocol ids; a length running past the value ends the list.
std::vector<std::string> AlpnIds(const std::string& value);

// NameToText, except that the root is "." (an SVCB target or NAPTR replacement of "." means something);
// MX, PTR and CNAME keep NameToText's empty root as they always had.
std::string RdataNameText(const Name& name);

}  // namespace nettools::dns

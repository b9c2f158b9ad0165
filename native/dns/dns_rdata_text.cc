#include "dns/dns_rdata_text.h"

#include <cstdint>

namespace nettools::dns {

std::string Base64Text(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = (static_cast<uint32_t>(static_cast<uint8_t>(bytes[i])) << 16) |
                 (static_cast<uint32_t>(static_cast<uint8_t>(bytes[i + 1])) << 8) | static_cast<uint8_t>(bytes[i + 2]);
    out.push_back(kAlphabet[(v >> 18) & 0x3F]);
    out.push_back(kAlphabet[(v >> 12) & 0x3F]);
    out.push_back(kAlphabet[(v >> 6) & 0x3F]);
    out.push_back(kAlphabet[v & 0x3F]);
  }
  size_t rest = bytes.size() - i;
  if (rest == 0) return out;
  uint32_t v = static_cast<uint32_t>(static_cast<uint8_t>(bytes[i])) << 16;
  if (rest == 2) v |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i + 1])) << 8;
  out.push_back(kAlphabet[(v >> 18) & 0x3F]);
  out.push_back(kAlphabet[(v >> 12) & 0x3F]);
  out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 0x3F] : '=');
  out.push_back('=');
  return out;
}

std::vector<std::string> AlpnIds(const std::string& value) {
  std::vector<std::string> ids;
  size_t i = 0;
  while (i < value.size()) {
    size_t len = static_cast<uint8_t>(value[i]);
    if (len > value.size() - i - 1) break;
    ids.push_back(value.substr(i + 1, len));
    i += 1 + len;
  }
  return ids;
}

std::string RdataNameText(const Name& name) { return name.labels.empty() ? std::string(".") : NameToText(name); }

}  // namespace nettools::dns

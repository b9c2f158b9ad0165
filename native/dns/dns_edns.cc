#include "dns/dns_edns.h"

#include <utility>

namespace nettools::dns {

namespace {

Status ReadExtendedError(Reader& opt, Edns* out) {
  ExtendedError e;
  if (!opt.u16(&e.code)) return Status::kBadRdata;
  size_t keep = opt.remaining() < kMaxEdeText ? opt.remaining() : kMaxEdeText;
  if (!opt.bytes(keep, &e.text)) return Status::kBadRdata;
  // Some servers end EXTRA-TEXT with a NUL; it is not text.
  while (!e.text.empty() && e.text.back() == '\0') e.text.pop_back();
  if (out->errors.size() < kMaxEdeOptions) out->errors.push_back(std::move(e));
  return Status::kOk;
}

Status ReadSubnet(Reader& opt, Edns* out) {
  uint8_t source = 0;
  uint8_t scope = 0;
  uint16_t family = 0;
  if (!opt.u16(&family) || !opt.u8(&source) || !opt.u8(&scope)) return Status::kBadRdata;
  size_t max = family == 1 ? 4 : family == 2 ? 16 : 0;
  if (opt.remaining() > max) return Status::kBadRdata;
  out->has_subnet = true;
  out->subnet_family = family;
  out->subnet_source = source;
  out->subnet_scope = scope;
  return Status::kOk;
}

}  // namespace

Status ReadOpt(Reader& rd, uint32_t ttl, Edns* out) {
  out->present = true;
  out->flags = static_cast<uint16_t>(ttl & 0xFFFF);
  while (rd.remaining() > 0) {
    uint16_t code = 0;
    uint16_t len = 0;
    Reader opt(nullptr, 0);
    if (!rd.u16(&code) || !rd.u16(&len) || !rd.limit(len, &opt)) return Status::kBadRdata;
    Status s = Status::kOk;
    if (code == edns::kOptionExtendedError) s = ReadExtendedError(opt, out);
    else if (code == edns::kOptionSubnet && !out->has_subnet) s = ReadSubnet(opt, out);
    if (s != Status::kOk) return s;
    rd.skip(len);
  }
  return Status::kOk;
}

std::string SubnetOption(const uint8_t* address, size_t size, uint8_t prefix) {
  if ((size != 4 && size != 16) || prefix > size * 8) return std::string();
  std::string out;
  out.push_back(0);
  out.push_back(size == 4 ? 1 : 2);
  out.push_back(static_cast<char>(prefix));
  out.push_back(0);  // SCOPE PREFIX-LENGTH: 0 in queries
  size_t bytes = (static_cast<size_t>(prefix) + 7) / 8;
  for (size_t i = 0; i < bytes; ++i) {
    uint8_t b = address[i];
    size_t bits_left = static_cast<size_t>(prefix) - i * 8;
    if (bits_left < 8) b = static_cast<uint8_t>(b & (0xFF << (8 - bits_left)));
    out.push_back(static_cast<char>(b));
  }
  return out;
}

}  // namespace nettools::dns

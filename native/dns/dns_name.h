// Domain names as label lists: decoding with compression, encoding, text form and comparison.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/reader.h"
#include "dns/dns_status.h"

namespace nettools::dns {

constexpr size_t kMaxLabel = 63;
constexpr size_t kMaxNameWire = 255;
// Each jump must go strictly backwards, so chains end anyway; the cap bounds the work per name.
constexpr int kMaxPointerHops = 32;

struct Name {
  std::vector<std::string> labels;  // as sent, case preserved
};

// Reads a possibly compressed name at the reader's position and leaves the reader just after it.
Status ReadName(Reader& r, Name* out);

// Presentation form without the trailing dot; bytes outside printable ASCII, dots and backslashes escaped.
std::string NameToText(const Name& name);

// ASCII case-insensitive, as DNS compares names.
bool NamesEqual(const Name& a, const Name& b);

// Dotted ASCII text (no escapes, optional trailing dot) to labels, checking label and name lengths.
Status NameFromText(std::string_view text, Name* out);

void WriteName(const Name& name, std::vector<uint8_t>* out);

}  // namespace nettools::dns

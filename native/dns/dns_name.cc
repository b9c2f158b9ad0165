#include "dns/dns_name.h"

namespace nettools::dns {

namespace {

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

Status ReadName(Reader& r, Name* out) {
  out->labels.clear();
  // Most names have at most four labels: one allocation instead of growing through 1, 2 and 4.
  out->labels.reserve(4);
  Reader cur = r;
  // Pointers must land strictly before the start of the stretch being read, so positions only decrease.
  size_t segment_start = r.pos();
  size_t wire_len = 0;
  int hops = 0;
  bool jumped = false;
  for (;;) {
    uint8_t len = 0;
    if (!cur.u8(&len)) return Status::kTruncated;
    if ((len & 0xC0) == 0xC0) {
      uint8_t low = 0;
      if (!cur.u8(&low)) return Status::kTruncated;
      size_t target = (static_cast<size_t>(len & 0x3F) << 8) | low;
      if (target >= segment_start) return Status::kBadPointer;
      if (++hops > kMaxPointerHops) return Status::kPointerChainTooLong;
      if (!jumped) {
        if (!r.seek(cur.pos())) return Status::kTruncated;
        jumped = true;
      }
      if (!cur.seek(target)) return Status::kBadPointer;
      segment_start = target;
      continue;
    }
    // 0x40 and 0x80 are the obsolete extended label types: refuse them. This also caps labels at 63.
    if (len & 0xC0) return Status::kBadLabelType;
    wire_len += 1 + static_cast<size_t>(len);
    if (wire_len > kMaxNameWire) return Status::kNameTooLong;
    if (len == 0) break;
    std::string label;
    if (!cur.bytes(len, &label)) return Status::kTruncated;
    out->labels.push_back(std::move(label));
  }
  if (!jumped && !r.seek(cur.pos())) return Status::kTruncated;
  return Status::kOk;
}

std::string NameToText(const Name& name) {
  std::string text;
  for (size_t i = 0; i < name.labels.size(); ++i) {
    if (i > 0) text.push_back('.');
    for (char c : name.labels[i]) {
      auto b = static_cast<unsigned char>(c);
      if (c == '.' || c == '\\') {
        text.push_back('\\');
        text.push_back(c);
      } else if (b <= 0x20 || b >= 0x7F) {
        char esc[5] = {'\\', static_cast<char>('0' + b / 100), static_cast<char>('0' + (b / 10) % 10),
                       static_cast<char>('0' + b % 10), 0};
        text.append(esc);
      } else {
        text.push_back(c);
      }
    }
  }
  return text;
}

bool NamesEqual(const Name& a, const Name& b) {
  if (a.labels.size() != b.labels.size()) return false;
  for (size_t i = 0; i < a.labels.size(); ++i) {
    const std::string& x = a.labels[i];
    const std::string& y = b.labels[i];
    if (x.size() != y.size()) return false;
    for (size_t j = 0; j < x.size(); ++j) {
      if (Lower(x[j]) != Lower(y[j])) return false;
    }
  }
  return true;
}

Status NameFromText(std::string_view text, Name* out) {
  out->labels.clear();
  if (!text.empty() && text.back() == '.') text.remove_suffix(1);
  if (text.empty()) return Status::kOk;  // the root
  size_t wire_len = 1;
  size_t start = 0;
  for (;;) {
    size_t dot = text.find('.', start);
    std::string_view label = text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || label.size() > kMaxLabel) return Status::kInvalidName;
    wire_len += 1 + label.size();
    if (wire_len > kMaxNameWire) return Status::kInvalidName;
    out->labels.emplace_back(label);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return Status::kOk;
}

void WriteName(const Name& name, std::vector<uint8_t>* out) {
  for (const std::string& label : name.labels) {
    out->push_back(static_cast<uint8_t>(label.size()));
    out->insert(out->end(), label.begin(), label.end());
  }
  out->push_back(0);
}

}  // namespace nettools::dns

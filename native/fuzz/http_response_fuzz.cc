// Hostile HTTP/1.x answers against the response parser: cut into reads of any size (as TCP and TLS cut
// them), the parser must end in exactly the state, error, head and body that one read of the whole answer
// gives, never hand on more body than it was given, and never claim more bytes than a read held. Lines
// can be stretched to around kMaxHeadBytes, so both sides of each bound are reached too.
// fuzz-sources: http/http_response_parser.cc
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "http/http_response_parser.h"

using nettools::http::ResponseHead;
using nettools::http::ResponseParser;

namespace {

struct Outcome {
  ResponseParser::State state;
  nettools::http::ParseError error;
  std::vector<uint8_t> body;
  size_t consumed = 0;
};

// One Feed of `n` bytes: within them, all taken unless the answer ended or failed, and nothing after.
size_t FeedChecked(ResponseParser* parser, const uint8_t* data, size_t n, std::vector<uint8_t>* body) {
  const ResponseParser::State before = parser->state();
  const size_t used = parser->Feed(data, n, body);
  if (used > n) abort();
  if (used < n && parser->state() != ResponseParser::State::kDone &&
      parser->state() != ResponseParser::State::kError) {
    abort();
  }
  if ((before == ResponseParser::State::kDone || before == ResponseParser::State::kError) && used != 0) abort();
  if (n > 0 && !parser->started() && before != ResponseParser::State::kError) abort();
  return used;
}

Outcome Run(const uint8_t* stream, size_t length, size_t chunk, ResponseParser* parser) {
  Outcome out;
  for (size_t pos = 0; pos < length; pos += chunk) {
    const size_t n = length - pos < chunk ? length - pos : chunk;
    out.consumed += FeedChecked(parser, stream + pos, n, &out.body);
  }
  out.state = parser->state();
  out.error = parser->error();
  return out;
}

bool SameHead(const ResponseHead& a, const ResponseHead& b) {
  if (a.status != b.status || a.version_minor != b.version_minor || a.headers_dropped != b.headers_dropped ||
      a.headers.size() != b.headers.size()) {
    return false;
  }
  for (size_t i = 0; i < a.headers.size(); ++i) {
    if (a.headers[i].name != b.headers[i].name || a.headers[i].value != b.headers[i].value) return false;
  }
  return true;
}

void Compare(const ResponseParser& whole, const Outcome& w, const ResponseParser& cut, const Outcome& c,
             size_t length) {
  if (w.state != c.state || w.error != c.error || w.body != c.body) abort();
  if (!SameHead(whole.head(), cut.head())) abort();
  if (w.body.size() > length || w.consumed > length || c.consumed > length) abort();
  // Once done, both stopped at the same byte: what follows is not this answer's.
  if (w.state == ResponseParser::State::kDone && w.consumed != c.consumed) abort();
  if ((w.state == ResponseParser::State::kError) != (w.error != nettools::http::ParseError::kNone)) abort();
  if (whole.head().headers.size() > ResponseParser::kMaxHeaders) abort();
}

// The bounds sit at kMaxHeadBytes and kMaxChunkExtensionBytes, far past the inputs libFuzzer makes, so an
// input can ask for one line to be padded to just around them: the bound less 256, plus `pad`, filler
// bytes put at the end of line `flags >> 4` (before its CR LF, or at the end of the stream if it has
// fewer lines), the filler one of a token byte, a hex digit, a space and an extension separator
// (`flags >> 2 & 3`), so that a field value, a name, a reason phrase or a chunk size reaches each side of
// kMaxHeadBytes, and chunk extensions each side of kMaxChunkExtensionBytes.
std::vector<uint8_t> Stretch(uint8_t flags, uint8_t pad, const uint8_t* data, size_t size) {
  static constexpr uint8_t kFillers[] = {'a', '0', ' ', ';'};
  const uint8_t filler = kFillers[(flags >> 2) & 3];
  const size_t bound = filler == ';' ? ResponseParser::kMaxChunkExtensionBytes : ResponseParser::kMaxHeadBytes;
  const size_t fill = bound - 256 + pad;
  size_t at = size;
  for (size_t i = 0, lines = 0; i < size; ++i) {
    if (data[i] != '\n') continue;
    if (lines++ == static_cast<size_t>(flags >> 4)) {
      at = i > 0 && data[i - 1] == '\r' ? i - 1 : i;
      break;
    }
  }
  std::vector<uint8_t> out(data, data + at);
  out.insert(out.end(), fill, filler);
  out.insert(out.end(), data + at, data + size);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  // The first byte sets the read size (1 to 256 bytes), the second's bit 0 says the request was a HEAD;
  // with its bit 1 set, a third byte and the rest of it stretch one line to around a bound (Stretch).
  const size_t chunk = static_cast<size_t>(data[0]) + 1;
  const bool head_request = (data[1] & 1) != 0;
  std::vector<uint8_t> stretched;
  const uint8_t* stream = data + 2;
  size_t length = size - 2;
  if ((data[1] & 2) != 0) {
    if (size < 3) return 0;
    stretched = Stretch(data[1], data[2], data + 3, size - 3);
    stream = stretched.data();
    length = stretched.size();
  }

  ResponseParser whole(head_request);
  Outcome w = Run(stream, length, length == 0 ? 1 : length, &whole);
  ResponseParser cut(head_request);
  Outcome c = Run(stream, length, chunk, &cut);
  Compare(whole, w, cut, c, length);

  // The close, then: the same verdict both ways, and a done or failed parser takes nothing more.
  whole.Eof();
  cut.Eof();
  w.state = whole.state();
  w.error = whole.error();
  c.state = cut.state();
  c.error = cut.error();
  Compare(whole, w, cut, c, length);
  if (whole.state() != ResponseParser::State::kDone && whole.state() != ResponseParser::State::kError) abort();
  if (length > 0 && whole.Feed(stream, length, &w.body) != 0) abort();
  if (nettools::http::ParseErrorCode(whole.error())[0] != 'H') abort();
  return 0;
}

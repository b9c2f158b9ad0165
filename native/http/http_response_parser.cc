#include "http/http_response_parser.h"

#include <algorithm>
#include <cstring>

// Rules (RFC 9112, the client's side, as strict as llhttp without its lenient flags):
// - A line ends at LF; a CR directly before it is dropped, and a CR anywhere else is kStrict. A bare LF
//   is taken as a line end (llhttp takes it too in the head), so a server that sends LF alone is read.
// - Lines are looked at only once whole, so what a line is judged to be does not depend on where the
//   reads cut it; the one exception, the "HTTP/" prefix, is checked on every byte of it as it comes, so
//   a server that is not speaking HTTP fails on its first bytes instead of after kMaxHeadBytes.
// - The heads of an answer (its 1xx ones with the final one) and its trailer are bounded by kMaxHeadBytes,
//   line ends included, and its chunk extensions together by kMaxChunkExtensionBytes: a line still open
//   once it can no longer end inside its bound fails at once (kHeaderOverflow, or
//   kChunkExtensionsOverflow for a chunk-size line), so line_ never holds more than kMaxHeadBytes.

namespace nettools::http {

namespace {

constexpr const char* kCodes[] = {
    "HPE_OK",
    "HPE_INVALID_CONSTANT",
    "HPE_INVALID_VERSION",
    "HPE_INVALID_STATUS",
    "HPE_HEADER_OVERFLOW",
    "HPE_INVALID_HEADER_TOKEN",
    "HPE_INVALID_CONTENT_LENGTH",
    "HPE_INVALID_TRANSFER_ENCODING",
    "HPE_INVALID_CHUNK_SIZE",
    "HPE_STRICT",
    "HPE_INVALID_EOF_STATE",
    "HPE_CHUNK_EXTENSIONS_OVERFLOW",
};
static_assert(sizeof(kCodes) / sizeof(kCodes[0]) == static_cast<size_t>(ParseError::kChunkExtensionsOverflow) + 1,
              "one llhttp name per ParseError");

constexpr char kPrefix[] = "HTTP/";
constexpr size_t kPrefixLength = sizeof(kPrefix) - 1;
// RFC 9112 7.1: a chunk size past what a double holds exactly is refused (llhttp refuses past 2^64;
// nothing a check reads is that large, and the bound keeps remaining_ plain arithmetic).
constexpr uint64_t kMaxChunkSize = uint64_t{1} << 53;
constexpr size_t kMaxChunkSizeDigits = 16;
constexpr uint64_t kMaxContentLength = (uint64_t{1} << 63) - 1;

// RFC 9110 5.6.2 tchar.
struct TokenTable {
  bool token[256] = {};
  constexpr TokenTable() {
    for (int c = '0'; c <= '9'; ++c) token[c] = true;
    for (int c = 'a'; c <= 'z'; ++c) token[c] = true;
    for (int c = 'A'; c <= 'Z'; ++c) token[c] = true;
    for (const char* p = "!#$%&'*+-.^_`|~"; *p != '\0'; ++p) token[static_cast<unsigned char>(*p)] = true;
  }
};
constexpr TokenTable kTokens;

bool IsToken(char c) { return kTokens.token[static_cast<unsigned char>(c)]; }
bool IsSpace(char c) { return c == ' ' || c == '\t'; }
// Field values may hold HTAB, visible ASCII, SP and obs-text; other control bytes are refused (NUL
// among them: llhttp refuses it, and a value with one is not text the check can report).
bool IsValueByte(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return u == '\t' || (u >= 0x20 && u != 0x7f);
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// `lower` is all lower case.
bool EqualsIgnoringCase(const char* text, size_t length, const char* lower) {
  const size_t want = std::strlen(lower);
  if (length != want) return false;
  for (size_t i = 0; i < length; ++i) {
    if (Lower(text[i]) != lower[i]) return false;
  }
  return true;
}

void Trim(const char* text, size_t* begin, size_t* end) {
  while (*begin < *end && IsSpace(text[*begin])) ++*begin;
  while (*end > *begin && IsSpace(text[*end - 1])) --*end;
}

// The next element of a comma-separated list from *pos on, OWS-trimmed; false when the list is done.
bool NextElement(const char* text, size_t length, size_t* pos, size_t* begin, size_t* end) {
  if (*pos > length) return false;
  const void* comma = std::memchr(text + *pos, ',', length - *pos);
  const size_t stop = comma != nullptr ? static_cast<size_t>(static_cast<const char*>(comma) - text) : length;
  *begin = *pos;
  *end = stop;
  Trim(text, begin, end);
  *pos = stop + 1;
  return true;
}

}  // namespace

const char* ParseErrorCode(ParseError error) {
  const size_t i = static_cast<size_t>(error);
  return i < sizeof(kCodes) / sizeof(kCodes[0]) ? kCodes[i] : "HPE_UNKNOWN";
}

size_t ResponseParser::Feed(const uint8_t* data, size_t size, std::vector<uint8_t>* body) {
  if (state_ == State::kError || state_ == State::kDone || size == 0 || data == nullptr) return 0;
  started_ = true;
  size_t pos = 0;
  while (pos < size && (state_ == State::kHead || state_ == State::kBody)) {
    switch (phase_) {
      case Phase::kStatusLine:
      case Phase::kFieldLine:
      case Phase::kChunkSize:
      case Phase::kTrailerLine:
        pos += TakeLine(data + pos, size - pos);
        break;
      case Phase::kLengthBody:
      case Phase::kCloseBody:
      case Phase::kChunkData:
        pos += TakeBody(data + pos, size - pos, body);
        break;
      case Phase::kChunkCr:
        if (data[pos] != '\r') return Fail(ParseError::kStrict), pos;
        ++pos;
        phase_ = Phase::kChunkLf;
        break;
      case Phase::kChunkLf:
        if (data[pos] != '\n') return Fail(ParseError::kStrict), pos;
        ++pos;
        phase_ = Phase::kChunkSize;
        break;
    }
  }
  return pos;
}

void ResponseParser::Eof() {
  if (state_ == State::kDone || state_ == State::kError) return;
  if (state_ == State::kBody && phase_ == Phase::kCloseBody) {
    state_ = State::kDone;
    return;
  }
  Fail(ParseError::kInvalidEofState);
}

void ResponseParser::Fail(ParseError error) {
  state_ = State::kError;
  error_ = error;
  std::string().swap(line_);
}

size_t ResponseParser::TakeBody(const uint8_t* data, size_t size, std::vector<uint8_t>* body) {
  size_t n = size;
  if (phase_ != Phase::kCloseBody && remaining_ < n) n = static_cast<size_t>(remaining_);
  if (body != nullptr) body->insert(body->end(), data, data + n);
  if (phase_ == Phase::kCloseBody) return n;
  remaining_ -= n;
  if (remaining_ == 0) {
    if (phase_ == Phase::kLengthBody) {
      state_ = State::kDone;
    } else {
      phase_ = Phase::kChunkCr;
    }
  }
  return n;
}

bool ResponseParser::StatusPrefixMatches(const uint8_t* data, size_t size) const {
  for (size_t at = line_.size(), i = 0; at < kPrefixLength && i < size; ++at, ++i) {
    if (data[i] != static_cast<uint8_t>(kPrefix[at])) return false;
  }
  return true;
}

// Grown by hand so that its capacity, not only its size, stays within kMaxHeadBytes (TakeLine never lets
// a line reach that size).
void ResponseParser::AppendToLine(const uint8_t* data, size_t size) {
  const size_t need = line_.size() + size;
  if (need > line_.capacity()) line_.reserve(std::min(std::max(need, 2 * line_.capacity()), kMaxHeadBytes));
  line_.append(reinterpret_cast<const char*>(data), size);
}

// Bytes the line being read may still take, its LF included. A chunk-size line may hold its digits, a CR
// and the extension bytes the answer has left; any longer, it cannot pass OnChunkSizeLine. Neither bound
// lets line_ reach kMaxHeadBytes (section_used_ never passes it).
size_t ResponseParser::LineBudget() const {
  if (phase_ == Phase::kChunkSize) {
    return kMaxChunkSizeDigits + (kMaxChunkExtensionBytes - extensions_used_) + 2 - line_.size();
  }
  return kMaxHeadBytes - section_used_ - line_.size();
}

size_t ResponseParser::TakeLine(const uint8_t* data, size_t size) {
  if (phase_ == Phase::kStatusLine && !StatusPrefixMatches(data, size)) {
    Fail(ParseError::kInvalidConstant);
    return 0;
  }
  const size_t budget = LineBudget();
  const ParseError overflow =
      phase_ == Phase::kChunkSize ? ParseError::kChunkExtensionsOverflow : ParseError::kHeaderOverflow;
  const void* lf = std::memchr(data, '\n', size);
  if (lf == nullptr) {
    if (size >= budget) {
      Fail(overflow);
      return size;
    }
    AppendToLine(data, size);
    return size;
  }
  const size_t take = static_cast<size_t>(static_cast<const uint8_t*>(lf) - data) + 1;
  if (take > budget) {
    Fail(overflow);
    return take;
  }
  if (phase_ != Phase::kChunkSize) section_used_ += line_.size() + take;
  if (line_.empty()) {
    OnLine(reinterpret_cast<const char*>(data), take - 1);
  } else {
    AppendToLine(data, take - 1);
    // Moved out while it is read, so that nothing OnLine does to line_ can free what it reads.
    std::string line;
    line.swap(line_);
    OnLine(line.data(), line.size());
    line.clear();
    line_.swap(line);  // its capacity serves the next cut line
  }
  const bool more_lines = (state_ == State::kHead || state_ == State::kBody) &&
                          (phase_ == Phase::kStatusLine || phase_ == Phase::kFieldLine ||
                           phase_ == Phase::kChunkSize || phase_ == Phase::kTrailerLine);
  if (!more_lines) std::string().swap(line_);  // a body read to the close holds no head memory
  return take;
}

void ResponseParser::OnLine(const char* text, size_t length) {
  if (length > 0 && text[length - 1] == '\r') --length;
  if (std::memchr(text, '\r', length) != nullptr) return Fail(ParseError::kStrict);
  switch (phase_) {
    case Phase::kStatusLine:
      return OnStatusLine(text, length);
    case Phase::kFieldLine:
      return OnFieldLine(text, length);
    case Phase::kChunkSize:
      return OnChunkSizeLine(text, length);
    case Phase::kTrailerLine:
      return OnTrailerLine(text, length);
    default:
      return;
  }
}

// HTTP/1.x SP 3DIGIT [SP reason]; the prefix is already checked.
void ResponseParser::OnStatusLine(const char* text, size_t length) {
  if (length < kPrefixLength + 3 || text[kPrefixLength] != '1' || text[kPrefixLength + 1] != '.' ||
      (text[kPrefixLength + 2] != '0' && text[kPrefixLength + 2] != '1')) {
    return Fail(ParseError::kInvalidVersion);
  }
  size_t at = kPrefixLength + 3;
  if (at == length || text[at] != ' ') return Fail(ParseError::kInvalidVersion);
  ++at;
  if (length - at < 3) return Fail(ParseError::kInvalidStatus);
  int status = 0;
  for (size_t i = 0; i < 3; ++i) {
    const char c = text[at + i];
    if (c < '0' || c > '9') return Fail(ParseError::kInvalidStatus);
    status = status * 10 + (c - '0');
  }
  at += 3;
  if (at < length && text[at] != ' ') return Fail(ParseError::kInvalidStatus);
  if (status < 100) return Fail(ParseError::kInvalidStatus);
  // The reason phrase is not kept; a control byte in it is not refused (llhttp takes it too).
  head_.status = status;
  head_.version_minor = text[kPrefixLength + 2] - '0';
  phase_ = Phase::kFieldLine;
}

// name ":" OWS value OWS, name a token with nothing between it and the colon; an obs-fold line starts
// with SP or HTAB, which no token has, so it is refused here too.
bool ResponseParser::CheckField(const char* text, size_t length, size_t* colon, size_t* value_begin,
                                size_t* value_end) {
  const void* found = std::memchr(text, ':', length);
  if (found == nullptr) return Fail(ParseError::kInvalidHeaderToken), false;
  *colon = static_cast<size_t>(static_cast<const char*>(found) - text);
  if (*colon == 0) return Fail(ParseError::kInvalidHeaderToken), false;
  for (size_t i = 0; i < *colon; ++i) {
    if (!IsToken(text[i])) return Fail(ParseError::kInvalidHeaderToken), false;
  }
  *value_begin = *colon + 1;
  *value_end = length;
  Trim(text, value_begin, value_end);
  for (size_t i = *value_begin; i < *value_end; ++i) {
    if (!IsValueByte(text[i])) return Fail(ParseError::kInvalidHeaderToken), false;
  }
  return true;
}

void ResponseParser::OnFieldLine(const char* text, size_t length) {
  if (length == 0) return EndHead();
  size_t colon = 0, begin = 0, end = 0;
  if (!CheckField(text, length, &colon, &begin, &end)) return;
  NoteFraming(text, colon, text + begin, end - begin);
  if (state_ == State::kError) return;
  if (head_.headers.size() < kMaxHeaders) {
    head_.headers.push_back(Header{std::string(text, colon), std::string(text + begin, end - begin)});
  } else {
    ++head_.headers_dropped;
  }
}

// Trailer fields are checked as header fields are, then dropped: the check reports none of them, and
// none of them may change the framing (RFC 9110 6.5.1).
void ResponseParser::OnTrailerLine(const char* text, size_t length) {
  if (length == 0) {
    state_ = State::kDone;
    return;
  }
  size_t colon = 0, begin = 0, end = 0;
  CheckField(text, length, &colon, &begin, &end);
}

void ResponseParser::NoteFraming(const char* name, size_t name_length, const char* value, size_t value_length) {
  size_t pos = 0, begin = 0, end = 0;
  if (EqualsIgnoringCase(name, name_length, "content-length")) {
    // Digits only, as a list of equal values at most (RFC 9110 8.6), equal to any earlier field's.
    while (NextElement(value, value_length, &pos, &begin, &end)) {
      if (begin == end) return Fail(ParseError::kInvalidContentLength);
      uint64_t n = 0;
      for (size_t i = begin; i < end; ++i) {
        const char c = value[i];
        if (c < '0' || c > '9') return Fail(ParseError::kInvalidContentLength);
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (n > (kMaxContentLength - digit) / 10) return Fail(ParseError::kInvalidContentLength);
        n = n * 10 + digit;
      }
      if (length_seen_ && n != length_) return Fail(ParseError::kInvalidContentLength);
      length_seen_ = true;
      length_ = n;
    }
  } else if (EqualsIgnoringCase(name, name_length, "transfer-encoding")) {
    // Codings accumulate across fields in order (RFC 9110 5.3); empty elements are allowed and skipped.
    coding_seen_ = true;
    while (NextElement(value, value_length, &pos, &begin, &end)) {
      if (begin == end) continue;
      size_t coding_end = begin;
      while (coding_end < end && value[coding_end] != ';' && !IsSpace(value[coding_end])) ++coding_end;
      if (chunked_last_) chunked_not_last_ = true;
      chunked_last_ = EqualsIgnoringCase(value + begin, coding_end - begin, "chunked");
    }
  }
}

void ResponseParser::EndHead() {
  const int status = head_.status;
  if (status >= 100 && status < 200 && status != 101) {
    // An interim answer: passed over, its bytes still counted against the final head's bound (as curl
    // counts them), so that a server sending 1xx answers without end fails instead of holding the check
    // to its timeout.
    return StartAnswer();
  }
  // With both, which one frames the body is the answer's to smuggle (RFC 9112 6.3 item 3): refused as
  // llhttp refuses it, whatever the status.
  if (coding_seen_ && length_seen_) return Fail(ParseError::kInvalidContentLength);
  if (head_request_ || status == 101 || status == 204 || status == 304) {
    state_ = State::kDone;
    return;
  }
  state_ = State::kBody;
  if (coding_seen_) {
    // A final coding other than chunked means the body runs to the close (RFC 9112 6.3 item 4), but
    // its end could then not be told from a cut connection, so it is refused as llhttp refuses it in a
    // request; chunked more than once is refused too (RFC 9112 7).
    if (!chunked_last_ || chunked_not_last_) return Fail(ParseError::kInvalidTransferEncoding);
    phase_ = Phase::kChunkSize;
    return;
  }
  if (length_seen_) {
    if (length_ == 0) {
      state_ = State::kDone;
      return;
    }
    phase_ = Phase::kLengthBody;
    remaining_ = length_;
    return;
  }
  phase_ = Phase::kCloseBody;
}

// After an interim answer; section_used_ runs on.
void ResponseParser::StartAnswer() {
  head_ = ResponseHead{};
  phase_ = Phase::kStatusLine;
  length_seen_ = false;
  length_ = 0;
  coding_seen_ = false;
  chunked_last_ = false;
  chunked_not_last_ = false;
}

// 1*HEXDIG [ ";" extensions ]: the extensions are not read, only counted toward kMaxChunkExtensionBytes.
void ResponseParser::OnChunkSizeLine(const char* text, size_t length) {
  uint64_t size = 0;
  size_t digits = 0;
  for (; digits < length; ++digits) {
    const int v = HexValue(text[digits]);
    if (v < 0) break;
    if (digits == kMaxChunkSizeDigits) return Fail(ParseError::kInvalidChunkSize);
    size = size * 16 + static_cast<uint64_t>(v);
  }
  if (digits == 0 || size > kMaxChunkSize) return Fail(ParseError::kInvalidChunkSize);
  if (digits < length && text[digits] != ';') return Fail(ParseError::kInvalidChunkSize);
  extensions_used_ += length - digits;
  if (extensions_used_ > kMaxChunkExtensionBytes) return Fail(ParseError::kChunkExtensionsOverflow);
  if (size == 0) {
    section_used_ = 0;
    phase_ = Phase::kTrailerLine;
    return;
  }
  phase_ = Phase::kChunkData;
  remaining_ = size;
}

}  // namespace nettools::http

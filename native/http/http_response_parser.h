// An HTTP/1.x response read incrementally from a connection the check made itself: the status line, the
// header fields (bounded), then the body as its framing says (Content-Length, chunked, or to the close),
// handed on decoded and never kept. Pure C++ with no I/O, so its fuzz target links it alone. Every byte
// it reads is the server's: each read is bounds-checked, and what it keeps is bounded by kMaxHeadBytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nettools::http {

// Why an answer is not HTTP that the check can read. Names as llhttp (Node's HTTP parser) gives them,
// so a check reports the same code whichever client made it.
enum class ParseError : int {
  kNone = 0,
  kInvalidConstant,          // not "HTTP/" at the start
  kInvalidVersion,           // not 1.0 or 1.1
  kInvalidStatus,            // not three digits, or below 100
  kHeaderOverflow,           // the head (status line, fields, or a chunk's trailer) passed kMaxHeadBytes
  kInvalidHeaderToken,       // a field line with no colon, a name with a byte no token has, obs-fold
  kInvalidContentLength,     // not digits, two that differ, or with Transfer-Encoding
  kInvalidTransferEncoding,  // a coding other than chunked, or chunked not last
  kInvalidChunkSize,         // a chunk size that is not hex, or one too large
  kStrict,                   // a CR without its LF, a chunk's data not followed by CRLF
  kInvalidEofState,          // the connection closed before the framing said the body ends
  kChunkExtensionsOverflow,  // the chunk extensions of one answer passed kMaxChunkExtensionBytes (Node's code)
};

// llhttp's name for `error` (HPE_INVALID_CONSTANT, ...), for the check's `code`.
const char* ParseErrorCode(ParseError error);

struct Header {
  std::string name;   // as sent (case kept)
  std::string value;  // leading and trailing spaces and tabs removed
};

struct ResponseHead {
  int status = 0;
  int version_minor = 1;  // HTTP/1.<minor>
  std::vector<Header> headers;  // in order, repeated names repeated; at most kMaxHeaders
  size_t headers_dropped = 0;   // fields past kMaxHeaders (their bytes still count toward kMaxHeadBytes)
};

class ResponseParser {
 public:
  // The status lines and fields of an answer's heads together, its 1xx heads included, and a trailer.
  static constexpr size_t kMaxHeadBytes = 65536;
  // The chunk extensions of one answer together (each chunk-size line less its digits and line end):
  // Node's bound, so that a server cannot make a check read far more than the body it reports.
  static constexpr size_t kMaxChunkExtensionBytes = 16384;
  static constexpr size_t kMaxHeaders = 256;

  enum class State { kHead, kBody, kDone, kError };

  // `head_request`: the answer to a HEAD has no body whatever its fields say. A 1xx answer (100, 103) is
  // read and passed over: the head reported is the final answer's, and the heads before it count toward
  // its kMaxHeadBytes, so endless 1xx answers end. 204 and 304 have no body.
  explicit ResponseParser(bool head_request) : head_request_(head_request) {}

  // Takes the next bytes of the stream. Body bytes, decoded of chunked coding, are appended to `body`
  // (which the caller empties as it consumes them; the parser never looks at it). Returns how many bytes
  // of `data` were used: fewer than `size` only once the state is kDone (the rest is not this answer's)
  // or kError.
  size_t Feed(const uint8_t* data, size_t size, std::vector<uint8_t>* body);

  // The connection closed: a body read to the close is complete (kDone); anything else left open is
  // kError with kInvalidEofState (a head not whole, a Content-Length or chunk not reached).
  void Eof();

  State state() const { return state_; }
  ParseError error() const { return error_; }
  // Whole once state() is kBody or kDone.
  const ResponseHead& head() const { return head_; }
  // True from the first byte of the answer on (a 1xx answer's included).
  bool started() const { return started_; }

 private:
  // Implementation-defined members follow.
  bool head_request_;
  State state_ = State::kHead;
  ParseError error_ = ParseError::kNone;
  ResponseHead head_;
  bool started_ = false;

  // Where in the answer the next byte goes. Line phases gather one line at a time (in line_ only when
  // a line is cut across Feed calls); body phases copy runs of bytes.
  enum class Phase {
    kStatusLine,
    kFieldLine,
    kLengthBody,  // Content-Length bytes left in remaining_
    kCloseBody,   // everything up to Eof()
    kChunkSize,
    kChunkData,   // remaining_ bytes of this chunk left
    kChunkCr,     // the CRLF that ends a chunk's data
    kChunkLf,
    kTrailerLine,
  };

  size_t TakeLine(const uint8_t* data, size_t size);
  size_t LineBudget() const;
  void AppendToLine(const uint8_t* data, size_t size);
  bool StatusPrefixMatches(const uint8_t* data, size_t size) const;
  void OnLine(const char* text, size_t length);
  void OnStatusLine(const char* text, size_t length);
  void OnFieldLine(const char* text, size_t length);
  void OnTrailerLine(const char* text, size_t length);
  void OnChunkSizeLine(const char* text, size_t length);
  bool CheckField(const char* text, size_t length, size_t* colon, size_t* value_begin, size_t* value_end);
  void NoteFraming(const char* name, size_t name_length, const char* value, size_t value_length);
  void EndHead();
  void StartAnswer();
  size_t TakeBody(const uint8_t* data, size_t size, std::vector<uint8_t>* body);
  void Fail(ParseError error);

  Phase phase_ = Phase::kStatusLine;
  std::string line_;         // a line cut across Feed calls, without its LF; never kMaxHeadBytes long
  size_t section_used_ = 0;  // bytes of whole lines of this answer's heads, or of its trailer, so far
  size_t extensions_used_ = 0;  // chunk extension bytes of this answer so far
  uint64_t remaining_ = 0;   // body bytes left (kLengthBody) or chunk bytes left (kChunkData)
  // The framing fields of the answer being read, taken from every field (those past kMaxHeaders too).
  bool length_seen_ = false;
  uint64_t length_ = 0;
  bool coding_seen_ = false;       // a Transfer-Encoding field, even an empty one
  bool chunked_last_ = false;      // the last coding so far is chunked
  bool chunked_not_last_ = false;  // chunked came before another coding (or itself again)
};

}  // namespace nettools::http

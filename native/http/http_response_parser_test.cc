// One case per rule of the response parser (http_response_parser.cc), each fed whole and again one byte
// at a time, since a rule must hold wherever the reads cut the answer. Prints "ok <name>" or
// "not ok <name>: <why>" per case and exits 1 if any failed.
// Built and run by test/native/http-response-parser.test.ts; by hand, from the repository root:
//   g++ -std=c++17 -Wall -Wextra -Werror -Inative native/http/http_response_parser{_test,}.cc
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "http/http_response_parser.h"

using nettools::http::ParseError;
using nettools::http::ParseErrorCode;
using nettools::http::ResponseParser;
using State = ResponseParser::State;

namespace {

constexpr size_t kAll = static_cast<size_t>(-1);

struct Case {
  const char* name;
  std::string input;
  State state;
  ParseError error = ParseError::kNone;
  std::string body = "";
  // Bytes Feed takes of the input (kAll: all of it); checked only when the answer is done.
  size_t consumed = kAll;
  bool head_request = false;
  bool eof = false;  // the connection closes after the input
  // Anything else the case says of the head; returns why it is wrong, or "" when right.
  std::function<std::string(const ResponseParser&)> check = nullptr;
};

const char* StateName(State s) {
  switch (s) {
    case State::kHead:
      return "head";
    case State::kBody:
      return "body";
    case State::kDone:
      return "done";
    case State::kError:
      return "error";
  }
  return "?";
}

std::string Repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

// A head whose bytes, final CRLF included, are exactly `total` long.
std::string HeadOfSize(size_t total) {
  const std::string start = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: ";
  return start + std::string(total - start.size() - 4, 'a') + "\r\n\r\n";
}

std::string ExpectStatus(int status, const ResponseParser& p) {
  if (p.head().status == status) return "";
  return "status " + std::to_string(p.head().status) + ", want " + std::to_string(status);
}

std::string ExpectHeader(size_t index, const char* name, const char* value, const ResponseParser& p) {
  const auto& headers = p.head().headers;
  if (index >= headers.size()) return "header " + std::to_string(index) + " missing";
  if (headers[index].name != name || headers[index].value != value) {
    return "header " + std::to_string(index) + " is [" + headers[index].name + "]=[" + headers[index].value + "]";
  }
  return "";
}

std::vector<Case> Cases() {
  const std::string ok = "HTTP/1.1 200 OK\r\n";
  const std::string chunked = ok + "Transfer-Encoding: chunked\r\n\r\n";
  std::string many_fields = ok;
  for (int i = 0; i < 300; ++i) many_fields += "X-F" + std::to_string(i) + ": v\r\n";
  // The Content-Length comes last, past kMaxHeaders: dropped from the head, still framing the body.
  many_fields += "Content-Length: 3\r\n\r\nabc";
  return {
      {"content-length-body-is-read-exactly", ok + "Content-Length: 5\r\n\r\nhelloEXTRA", State::kDone,
       ParseError::kNone, "hello", ok.size() + 21 + 5},
      {"status-version-and-headers-are-reported",
       "HTTP/1.0 404 Not Found\r\nServer: x\r\nX-Empty:\r\nContent-Length: 0\r\n\r\n", State::kDone,
       ParseError::kNone, "", kAll, false, false,
       [](const ResponseParser& p) {
         if (p.head().version_minor != 0) return std::string("minor version not 0");
         std::string why = ExpectStatus(404, p);
         if (why.empty()) why = ExpectHeader(0, "Server", "x", p);
         if (why.empty()) why = ExpectHeader(1, "X-Empty", "", p);
         return why;
       }},
      {"value-ows-is-trimmed-and-name-case-kept", ok + "X-Name:  \t a b \t\r\nContent-Length: 0\r\n\r\n",
       State::kDone, ParseError::kNone, "", kAll, false, false,
       [](const ResponseParser& p) { return ExpectHeader(0, "X-Name", "a b", p); }},
      {"empty-reason-phrase-accepted", "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n", State::kDone},
      {"missing-reason-phrase-accepted", "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", State::kDone},
      {"bare-lf-line-ends-accepted", "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi", State::kDone,
       ParseError::kNone, "hi"},
      {"not-http-is-invalid-constant", "SSH-2.0-OpenSSH_9.2\r\n", State::kError, ParseError::kInvalidConstant},
      {"not-http-fails-on-its-first-bytes", "HTTX", State::kError, ParseError::kInvalidConstant},
      {"http-2-is-invalid-version", "HTTP/2.0 200 OK\r\n\r\n", State::kError, ParseError::kInvalidVersion},
      {"http-1-2-is-invalid-version", "HTTP/1.2 200 OK\r\n\r\n", State::kError, ParseError::kInvalidVersion},
      {"two-spaces-before-status-is-invalid-status", "HTTP/1.1  200 OK\r\n\r\n", State::kError,
       ParseError::kInvalidStatus},
      {"status-below-100-is-invalid", "HTTP/1.1 099 Low\r\n\r\n", State::kError, ParseError::kInvalidStatus},
      {"two-digit-status-is-invalid", "HTTP/1.1 99 Low\r\n\r\n", State::kError, ParseError::kInvalidStatus},
      {"four-digit-status-is-invalid", "HTTP/1.1 2000 OK\r\n\r\n", State::kError, ParseError::kInvalidStatus},
      {"status-999-accepted", "HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n", State::kDone,
       ParseError::kNone, "", kAll, false, false, [](const ResponseParser& p) { return ExpectStatus(999, p); }},
      {"space-before-colon-is-invalid-header-token", ok + "X-A : b\r\n\r\n", State::kError,
       ParseError::kInvalidHeaderToken},
      {"line-without-colon-is-invalid-header-token", ok + "X-A b\r\n\r\n", State::kError,
       ParseError::kInvalidHeaderToken},
      {"empty-name-is-invalid-header-token", ok + ": b\r\n\r\n", State::kError, ParseError::kInvalidHeaderToken},
      {"non-token-name-is-invalid-header-token", ok + "X(A): b\r\n\r\n", State::kError,
       ParseError::kInvalidHeaderToken},
      {"obs-fold-is-invalid-header-token", ok + "X-A: b\r\n c\r\n\r\n", State::kError,
       ParseError::kInvalidHeaderToken},
      {"control-byte-in-value-is-invalid-header-token", ok + std::string("X-A: b\x01" "c\r\n\r\n"), State::kError,
       ParseError::kInvalidHeaderToken},
      {"nul-in-value-is-invalid-header-token", ok + std::string("X-A: b\0c\r\n\r\n", 12), State::kError,
       ParseError::kInvalidHeaderToken},
      {"htab-and-obs-text-in-value-accepted", ok + "X-A: a\tb\xe9\r\nContent-Length: 0\r\n\r\n", State::kDone,
       ParseError::kNone, "", kAll, false, false,
       [](const ResponseParser& p) { return ExpectHeader(0, "X-A", "a\tb\xe9", p); }},
      {"cr-without-lf-in-head-is-strict", ok + "X-A: b\rc\r\n\r\n", State::kError, ParseError::kStrict},
      {"cr-without-lf-in-status-line-is-strict", "HTTP/1.1 200 O\rK\r\n\r\n", State::kError, ParseError::kStrict},
      {"head-of-exactly-max-bytes-accepted", HeadOfSize(ResponseParser::kMaxHeadBytes), State::kDone},
      {"head-one-byte-over-max-is-header-overflow", HeadOfSize(ResponseParser::kMaxHeadBytes + 1), State::kError,
       ParseError::kHeaderOverflow},
      // A line still open fails as soon as its LF could no longer fit, not when more bytes come.
      {"open-line-that-can-still-end-within-max-waits",
       ok + "X-Pad: " + std::string(ResponseParser::kMaxHeadBytes - 25, 'a'), State::kHead},
      {"open-line-that-cannot-end-within-max-is-header-overflow",
       ok + "X-Pad: " + std::string(ResponseParser::kMaxHeadBytes - 24, 'a'), State::kError,
       ParseError::kHeaderOverflow},
      {"endless-line-is-header-overflow", ok + "X-A: " + std::string(200000, 'a'), State::kError,
       ParseError::kHeaderOverflow},
      {"fields-past-max-are-counted-and-still-frame", many_fields, State::kDone, ParseError::kNone, "abc", kAll,
       false, false,
       [](const ResponseParser& p) {
         if (p.head().headers.size() != ResponseParser::kMaxHeaders) return std::string("not kMaxHeaders kept");
         if (p.head().headers_dropped != 301 - ResponseParser::kMaxHeaders) return std::string("dropped count");
         return ExpectHeader(255, "X-F255", "v", p);
       }},
      {"interim-answers-are-passed-over",
       "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" + ok +
           "Content-Length: 2\r\nX-Final: y\r\n\r\nok",
       State::kDone, ParseError::kNone, "ok", kAll, false, false,
       [](const ResponseParser& p) {
         std::string why = ExpectStatus(200, p);
         if (why.empty() && p.head().headers.size() != 2) why = "interim headers kept";
         if (why.empty()) why = ExpectHeader(1, "X-Final", "y", p);
         return why;
       }},
      {"interim-heads-count-toward-the-final-heads-bound",
       HeadOfSize(ResponseParser::kMaxHeadBytes / 2).replace(9, 3, "100") +
           HeadOfSize(ResponseParser::kMaxHeadBytes / 2),
       State::kDone},
      {"interim-heads-past-the-bound-are-header-overflow",
       HeadOfSize(ResponseParser::kMaxHeadBytes / 2).replace(9, 3, "103") +
           HeadOfSize(ResponseParser::kMaxHeadBytes / 2 + 1),
       State::kError, ParseError::kHeaderOverflow},
      {"endless-interim-answers-are-header-overflow", Repeat("HTTP/1.1 100 Continue\r\n\r\n", 3000), State::kError,
       ParseError::kHeaderOverflow},
      {"only-interim-answer-then-close-is-invalid-eof", "HTTP/1.1 100 Continue\r\n\r\n", State::kError,
       ParseError::kInvalidEofState, "", kAll, false, true},
      {"switching-protocols-is-final-without-body", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nRAW",
       State::kDone, ParseError::kNone, "", 48},
      {"head-request-has-no-body", ok + "Content-Length: 10\r\n\r\n", State::kDone, ParseError::kNone, "", kAll,
       true},
      {"no-content-204-has-no-body", "HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\nabc", State::kDone,
       ParseError::kNone, "", 46},
      {"not-modified-304-has-no-body", "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
       State::kDone, ParseError::kNone, "", 57},
      {"no-framing-reads-to-close", ok + "\r\nall of it", State::kDone, ParseError::kNone, "all of it", kAll, false,
       true},
      {"no-framing-without-close-is-still-body", ok + "\r\npart", State::kBody, ParseError::kNone, "part"},
      {"content-length-cut-short-is-invalid-eof", ok + "Content-Length: 10\r\n\r\nshort", State::kError,
       ParseError::kInvalidEofState, "short", kAll, false, true},
      {"head-cut-short-is-invalid-eof", ok + "X-A: b\r\n", State::kError, ParseError::kInvalidEofState, "", kAll,
       false, true},
      {"content-length-zero-is-done-at-head", ok + "Content-Length: 0\r\n\r\n", State::kDone},
      {"equal-content-lengths-accepted", ok + "Content-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc",
       State::kDone, ParseError::kNone, "abc"},
      {"differing-content-lengths-are-invalid", ok + "Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
       State::kError, ParseError::kInvalidContentLength},
      {"differing-content-length-list-is-invalid", ok + "Content-Length: 3, 4\r\n\r\nabcd", State::kError,
       ParseError::kInvalidContentLength},
      {"non-digit-content-length-is-invalid", ok + "Content-Length: +3\r\n\r\nabc", State::kError,
       ParseError::kInvalidContentLength},
      {"empty-content-length-is-invalid", ok + "Content-Length:\r\n\r\n", State::kError,
       ParseError::kInvalidContentLength},
      {"content-length-2-63-minus-1-accepted", ok + "Content-Length: 9223372036854775807\r\n\r\nab", State::kBody,
       ParseError::kNone, "ab"},
      {"content-length-2-63-is-invalid", ok + "Content-Length: 9223372036854775808\r\n\r\n", State::kError,
       ParseError::kInvalidContentLength},
      {"content-length-with-chunked-is-invalid",
       ok + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", State::kError,
       ParseError::kInvalidContentLength},
      {"chunked-body-is-decoded", chunked + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\nNEXT", State::kDone,
       ParseError::kNone, "hello world", chunked.size() + 26},
      {"chunked-after-other-codings-accepted",
       ok + "Transfer-Encoding: gzip\r\ntransfer-encoding: , CHUNKED\r\n\r\n2\r\nab\r\n0\r\n\r\n", State::kDone,
       ParseError::kNone, "ab"},
      {"final-coding-not-chunked-is-invalid", ok + "Transfer-Encoding: chunked, gzip\r\n\r\n", State::kError,
       ParseError::kInvalidTransferEncoding},
      {"chunked-twice-is-invalid", ok + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
       State::kError, ParseError::kInvalidTransferEncoding},
      {"empty-transfer-encoding-is-invalid", ok + "Transfer-Encoding:\r\n\r\n", State::kError,
       ParseError::kInvalidTransferEncoding},
      {"chunk-extensions-are-skipped", chunked + "3;name=\"v;x\";flag\r\nabc\r\n0;last\r\n\r\n", State::kDone,
       ParseError::kNone, "abc"},
      {"uppercase-hex-chunk-size-accepted", chunked + "A\r\n0123456789\r\n0\r\n\r\n", State::kDone,
       ParseError::kNone, "0123456789"},
      {"non-hex-chunk-size-is-invalid", chunked + "g\r\n", State::kError, ParseError::kInvalidChunkSize},
      {"empty-chunk-size-is-invalid", chunked + "\r\n", State::kError, ParseError::kInvalidChunkSize},
      {"space-after-chunk-size-is-invalid", chunked + "3 \r\nabc\r\n", State::kError, ParseError::kInvalidChunkSize},
      {"chunk-size-2-53-accepted", chunked + "20000000000000\r\nab", State::kBody, ParseError::kNone, "ab"},
      {"chunk-size-over-2-53-is-invalid", chunked + "20000000000001\r\n", State::kError,
       ParseError::kInvalidChunkSize},
      {"sixteen-hex-digits-accepted", chunked + "0000000000000001\r\na\r\n0\r\n\r\n", State::kDone,
       ParseError::kNone, "a"},
      {"seventeen-hex-digits-are-invalid", chunked + "00000000000000001\r\na\r\n0\r\n\r\n", State::kError,
       ParseError::kInvalidChunkSize},
      {"endless-chunk-extension-is-chunk-extensions-overflow", chunked + "1;" + std::string(70000, 'x'),
       State::kError, ParseError::kChunkExtensionsOverflow},
      {"chunk-extensions-up-to-max-accepted",
       chunked + "1;" + std::string(ResponseParser::kMaxChunkExtensionBytes - 1, 'x') + "\r\na\r\n0\r\n\r\n",
       State::kDone, ParseError::kNone, "a"},
      {"chunk-extensions-one-past-max-overflow",
       chunked + "1;" + std::string(ResponseParser::kMaxChunkExtensionBytes, 'x') + "\r\na\r\n0\r\n\r\n",
       State::kError, ParseError::kChunkExtensionsOverflow},
      {"chunk-extensions-are-summed-over-the-answer",
       chunked + Repeat("1;" + std::string(ResponseParser::kMaxChunkExtensionBytes / 4 - 1, 'x') + "\r\na\r\n", 4) +
           "1;x\r\na\r\n0\r\n\r\n",
       State::kError, ParseError::kChunkExtensionsOverflow, "aaaa"},
      {"last-chunk-extensions-count-too",
       chunked + "1;" + std::string(ResponseParser::kMaxChunkExtensionBytes - 10, 'x') + "\r\na\r\n0;" +
           std::string(9, 'y') + "\r\n\r\n",
       State::kError, ParseError::kChunkExtensionsOverflow, "a"},
      {"seventeen-digit-chunk-size-with-long-extension-is-overflow",
       chunked + "00000000000000001;" + std::string(ResponseParser::kMaxChunkExtensionBytes, 'x') + "\r\n",
       State::kError, ParseError::kChunkExtensionsOverflow},
      {"chunk-data-without-crlf-is-strict", chunked + "3\r\nabcX\r\n0\r\n\r\n", State::kError, ParseError::kStrict,
       "abc"},
      {"chunk-data-with-bare-lf-is-strict", chunked + "3\r\nabc\n0\r\n\r\n", State::kError, ParseError::kStrict,
       "abc"},
      {"trailer-fields-are-checked-and-dropped", chunked + "1\r\na\r\n0\r\nExpires: never\r\nX-Sum: 1\r\n\r\n",
       State::kDone, ParseError::kNone, "a", kAll, false, false,
       [](const ResponseParser& p) {
         return p.head().headers.size() == 1 ? std::string() : std::string("trailer fields kept");
       }},
      {"bad-trailer-field-is-invalid-header-token", chunked + "0\r\nBad Name: x\r\n\r\n", State::kError,
       ParseError::kInvalidHeaderToken},
      {"trailer-past-max-bytes-is-header-overflow",
       chunked + "0\r\n" + Repeat("X-Trailer: " + std::string(1000, 't') + "\r\n", 70) + "\r\n", State::kError,
       ParseError::kHeaderOverflow},
      {"chunked-cut-short-is-invalid-eof", chunked + "5\r\nhel", State::kError, ParseError::kInvalidEofState,
       "hel", kAll, false, true},
      {"eof-after-done-stays-done", ok + "Content-Length: 1\r\n\r\nx", State::kDone, ParseError::kNone, "x", kAll,
       false, true},
      {"started-from-the-first-byte", "H", State::kHead, ParseError::kNone, "", kAll, false, false,
       [](const ResponseParser& p) { return p.started() ? std::string() : std::string("not started"); }},
      {"eof-before-any-byte-is-invalid-eof", "", State::kError, ParseError::kInvalidEofState, "", kAll, false, true},
  };
}

struct Run {
  State state;
  ParseError error;
  std::string body;
  size_t consumed = 0;
  bool feed_after_end_took = false;
};

Run Parse(const Case& c, size_t step, ResponseParser* p) {
  Run run;
  std::vector<uint8_t> body;
  const uint8_t* data = reinterpret_cast<const uint8_t*>(c.input.data());
  for (size_t pos = 0; pos < c.input.size(); pos += step) {
    const size_t n = c.input.size() - pos < step ? c.input.size() - pos : step;
    run.consumed += p->Feed(data + pos, n, &body);
  }
  if (c.eof) p->Eof();
  if ((p->state() == State::kDone || p->state() == State::kError) && !c.input.empty()) {
    run.feed_after_end_took = p->Feed(data, c.input.size(), &body) != 0;
  }
  run.state = p->state();
  run.error = p->error();
  run.body.assign(body.begin(), body.end());
  return run;
}

std::string Check(const Case& c, size_t step) {
  ResponseParser p(c.head_request);
  const Run run = Parse(c, step, &p);
  const std::string how = step == 1 ? " (byte by byte)" : " (whole)";
  if (run.state != c.state || run.error != c.error) {
    return std::string("state ") + StateName(run.state) + " " + ParseErrorCode(run.error) + ", want " +
           StateName(c.state) + " " + ParseErrorCode(c.error) + how;
  }
  if (run.body != c.body) return "body [" + run.body + "], want [" + c.body + "]" + how;
  if (run.feed_after_end_took) return "fed after the end, took bytes" + how;
  if (!c.input.empty() && !p.started()) return "not started" + how;
  if (c.state == State::kDone) {
    const size_t want = c.consumed == kAll ? c.input.size() : c.consumed;
    if (run.consumed != want) {
      return "consumed " + std::to_string(run.consumed) + ", want " + std::to_string(want) + how;
    }
  }
  if (c.check) {
    const std::string why = c.check(p);
    if (!why.empty()) return why + how;
  }
  return "";
}

}  // namespace

int main() {
  int failed = 0;
  for (const Case& c : Cases()) {
    std::string why = Check(c, c.input.size() == 0 ? 1 : c.input.size());
    if (why.empty()) why = Check(c, 1);
    if (why.empty()) {
      std::printf("ok %s\n", c.name);
    } else {
      std::printf("not ok %s: %s\n", c.name, why.c_str());
      ++failed;
    }
  }
  // The one table outside the cases: every error has its llhttp name.
  const bool names_ok = std::string(ParseErrorCode(ParseError::kNone)) == "HPE_OK" &&
                        std::string(ParseErrorCode(ParseError::kInvalidTransferEncoding)) ==
                            "HPE_INVALID_TRANSFER_ENCODING" &&
                        std::string(ParseErrorCode(ParseError::kInvalidEofState)) == "HPE_INVALID_EOF_STATE";
  std::printf("%s error-codes-are-llhttp-names\n", names_ok ? "ok" : "not ok");
  if (!names_ok) ++failed;
  return failed == 0 ? 0 : 1;
}

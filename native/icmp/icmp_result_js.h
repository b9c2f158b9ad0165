// A ping's result, and one echo's outcome as it is decided, as JS values in the addon's one packed form
// (common/packed_js.h), which src/engines/icmp/unpack.ts turns back into objects.
// A result: echoes, duplicates, durationMs, then per echo (kPerEcho) status, rttMs, ttl, bytes, from,
// reason, ICMP type, ICMP code (of the answer: echo reply or error; a trace shows them); -1 stands for an
// absent number. The echoes of one engine frame as they were decided: records (ResultWriter::Report).
#pragma once

#include <napi.h>

#include "common/packed_js.h"
#include "icmp/icmp_engine.h"

namespace nettools::icmp {

// Numbers per echo in a packed result (src/engines/icmp/unpack.ts reads the same count).
constexpr size_t kPerEcho = 8;

// The status names, index = ReplyStatus value, for JS to name the numbers with.
Napi::Array ReplyStatusNames(Napi::Env env);

// Numbers before each report's echo: its size (kReportSize numbers: its numbers after them, its ASCII
// characters, its own texts), then its session and index (src/engines/icmp/pinger.ts reads them).
constexpr size_t kReportSize = 3;
constexpr size_t kReportHead = kReportSize + 2;

class ResultWriter {
 public:
  explicit ResultWriter(Napi::Env env) : packed_(env, kSharedNumbers), reports_(env, kSharedReportNumbers) {}
  PackedValues Packed(const PingResult& result);

  // The echoes decided in one engine frame, gathered and handed to JS at once: each a record that states
  // its own size first, so that JS can find the next whatever the reader of one did with it.
  void Report(uint64_t session, uint32_t index, const EchoOutcome& echo);
  bool HasReports() const { return reported_ > 0; }
  // The reports so far, packed; the next Report starts a new packing.
  PackedValues FinishReports();
  void DropReports();

 private:
  // 64 echoes fit; a longer ping (up to 10,000) gets an array of its own.
  static constexpr size_t kSharedNumbers = 4 + kPerEcho * 64;
  // 64 reports of IPv6 answers fit; a frame with more gets an array of its own.
  static constexpr size_t kSharedReportNumbers = 1 + (kReportHead + kPerEcho + 4) * 64;
  static void WriteEcho(PackedWriter& p, const EchoOutcome& e);
  PackedWriter packed_;
  PackedWriter reports_;
  size_t reported_ = 0;
};

}  // namespace nettools::icmp

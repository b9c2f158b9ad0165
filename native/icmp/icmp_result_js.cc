#include "icmp/icmp_result_js.h"

namespace nettools::icmp {

namespace {

constexpr ReplyStatus kStatuses[] = {ReplyStatus::kReply, ReplyStatus::kTimeout, ReplyStatus::kUnreachable, ReplyStatus::kTimeExceeded};

const char* ReplyStatusName(ReplyStatus s) {
  switch (s) {
    case ReplyStatus::kReply: return "reply";
    case ReplyStatus::kTimeout: return "timeout";
    case ReplyStatus::kUnreachable: return "unreachable";
    case ReplyStatus::kTimeExceeded: return "time-exceeded";
  }
  return "timeout";
}

}  // namespace

Napi::Array ReplyStatusNames(Napi::Env env) {
  Napi::Array names = Napi::Array::New(env);
  for (ReplyStatus s : kStatuses) names.Set(static_cast<uint32_t>(s), ReplyStatusName(s));
  return names;
}

// The numbers of one echo (kPerEcho), its texts where they stand.
void ResultWriter::WriteEcho(PackedWriter& p, const EchoOutcome& e) {
  const bool reply = e.status == ReplyStatus::kReply;
  const bool answered = reply || e.status == ReplyStatus::kUnreachable || e.status == ReplyStatus::kTimeExceeded;
  p.Number(static_cast<double>(e.status));
  p.Number(answered && e.rtt_ms >= 0 ? e.rtt_ms : -1);
  p.Number(reply && e.ttl >= 0 ? e.ttl : -1);
  p.Number(reply ? static_cast<double>(e.bytes) : -1);
  p.Address(e.from);
  if (e.reason == nullptr) {
    p.NoText();
  } else {
    p.Text(e.reason);
  }
  p.Number(e.icmp_type);
  p.Number(e.icmp_code);
}

PackedValues ResultWriter::Packed(const PingResult& result) {
  packed_.Start();
  packed_.Number(static_cast<double>(result.echoes.size()));
  packed_.Number(static_cast<double>(result.duplicates));
  packed_.Number(result.duration_ms);
  for (const EchoOutcome& e : result.echoes) WriteEcho(packed_, e);
  return packed_.Finish();
}

void ResultWriter::Report(uint64_t session, uint32_t index, const EchoOutcome& echo) {
  PackedWriter& p = reports_;
  if (reported_ == 0) p.Start();
  const size_t head = p.numbers_written();
  const size_t ascii = p.ascii_written();
  const size_t texts = p.own_texts();
  for (size_t i = 0; i < kReportSize; ++i) p.Number(0);  // the record's size, below
  p.Number(static_cast<double>(session));
  p.Number(index);
  WriteEcho(p, echo);
  p.SetNumber(head, static_cast<double>(p.numbers_written() - head - kReportSize));
  p.SetNumber(head + 1, static_cast<double>(p.ascii_written() - ascii));
  p.SetNumber(head + 2, static_cast<double>(p.own_texts() - texts));
  ++reported_;
}

PackedValues ResultWriter::FinishReports() {
  reported_ = 0;
  return reports_.Finish();
}

// The next Report starts the packing afresh.
void ResultWriter::DropReports() { reported_ = 0; }

}  // namespace nettools::icmp

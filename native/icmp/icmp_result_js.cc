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
void ResultWriter::WriteEcho(const EchoOutcome& e) {
  PackedWriter& p = packed_;
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
  for (const EchoOutcome& e : result.echoes) WriteEcho(e);
  return packed_.Finish();
}

PackedValues ResultWriter::PackedEcho(const EchoOutcome& echo) {
  packed_.Start();
  WriteEcho(echo);
  return packed_.Finish();
}

}  // namespace nettools::icmp

#include "icmp/icmp_result_js.h"

#include <string>

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

// Appends `text` to `texts` and returns its length, the number that stands for it.
double Text(std::string* texts, const char* text, size_t length) {
  texts->append(text, length);
  return static_cast<double>(length);
}

// The numbers of one echo (kPerEcho), its texts appended to `texts`.
void WriteEcho(const EchoOutcome& e, double* d, std::string* texts) {
  const bool reply = e.status == ReplyStatus::kReply;
  const bool answered = reply || e.status == ReplyStatus::kUnreachable || e.status == ReplyStatus::kTimeExceeded;
  d[0] = static_cast<double>(e.status);
  d[1] = answered && e.rtt_ms >= 0 ? e.rtt_ms : -1;
  d[2] = reply && e.ttl >= 0 ? e.ttl : -1;
  d[3] = reply ? static_cast<double>(e.bytes) : -1;
  d[4] = e.from.empty() ? -1 : Text(texts, e.from.data(), e.from.size());
  d[5] = e.reason == nullptr ? -1 : Text(texts, e.reason, std::char_traits<char>::length(e.reason));
  d[6] = e.icmp_type;
  d[7] = e.icmp_code;
}

std::pair<Napi::Float64Array, Napi::String> Pair(Napi::Env env, Napi::Float64Array numbers, const std::string& texts) {
  napi_value text = nullptr;
  NAPI_THROW_IF_FAILED(env, napi_create_string_latin1(env, texts.data(), texts.size(), &text), {});
  return {numbers, Napi::String(env, text)};
}

}  // namespace

Napi::Array ReplyStatusNames(Napi::Env env) {
  Napi::Array names = Napi::Array::New(env);
  for (ReplyStatus s : kStatuses) names.Set(static_cast<uint32_t>(s), ReplyStatusName(s));
  return names;
}

ResultWriter::ResultWriter(Napi::Env env) { numbers_ = Napi::Persistent(Napi::Float64Array::New(env, kSharedNumbers)); }

std::pair<Napi::Float64Array, Napi::String> ResultWriter::Packed(Napi::Env env, const PingResult& result) const {
  const size_t count = 3 + kPerEcho * result.echoes.size();
  Napi::Float64Array numbers = numbers_.Value();
  if (count > numbers.ElementLength()) numbers = Napi::Float64Array::New(env, count);
  double* d = numbers.Data();
  size_t k = 0;
  d[k++] = static_cast<double>(result.echoes.size());
  d[k++] = static_cast<double>(result.duplicates);
  d[k++] = result.duration_ms;
  std::string texts;
  for (const EchoOutcome& e : result.echoes) {
    WriteEcho(e, d + k, &texts);
    k += kPerEcho;
  }
  return Pair(env, numbers, texts);
}

std::pair<Napi::Float64Array, Napi::String> ResultWriter::PackedEcho(Napi::Env env, const EchoOutcome& echo) const {
  Napi::Float64Array numbers = numbers_.Value();
  std::string texts;
  WriteEcho(echo, numbers.Data(), &texts);
  return Pair(env, numbers, texts);
}

}  // namespace nettools::icmp

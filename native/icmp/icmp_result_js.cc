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

}  // namespace

Napi::Array ReplyStatusNames(Napi::Env env) {
  Napi::Array names = Napi::Array::New(env);
  for (ReplyStatus s : kStatuses) names.Set(static_cast<uint32_t>(s), ReplyStatusName(s));
  return names;
}

ResultWriter::ResultWriter(Napi::Env env) { numbers_ = Napi::Persistent(Napi::Float64Array::New(env, kSharedNumbers)); }

std::pair<Napi::Float64Array, Napi::String> ResultWriter::Packed(Napi::Env env, const PingResult& result) const {
  const size_t count = 3 + 6 * result.echoes.size();
  Napi::Float64Array numbers = numbers_.Value();
  if (count > numbers.ElementLength()) numbers = Napi::Float64Array::New(env, count);
  double* d = numbers.Data();
  size_t k = 0;
  d[k++] = static_cast<double>(result.echoes.size());
  d[k++] = static_cast<double>(result.duplicates);
  d[k++] = result.duration_ms;
  std::string texts;
  for (const EchoOutcome& e : result.echoes) {
    const bool reply = e.status == ReplyStatus::kReply;
    d[k++] = static_cast<double>(e.status);
    d[k++] = reply ? e.rtt_ms : -1;
    d[k++] = reply && e.ttl >= 0 ? e.ttl : -1;
    d[k++] = reply ? static_cast<double>(e.bytes) : -1;
    d[k++] = e.from.empty() ? -1 : Text(&texts, e.from.data(), e.from.size());
    d[k++] = e.reason == nullptr ? -1 : Text(&texts, e.reason, std::char_traits<char>::length(e.reason));
  }
  napi_value text = nullptr;
  NAPI_THROW_IF_FAILED(env, napi_create_string_latin1(env, texts.data(), texts.size(), &text), {});
  return {numbers, Napi::String(env, text)};
}

}  // namespace nettools::icmp

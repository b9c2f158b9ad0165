#include "common/packed_js.h"

#include <cstring>

namespace nettools {

namespace {

constexpr size_t kKeptNumbers = 8192;

bool IsAscii(const char* data, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (static_cast<unsigned char>(data[i]) >= 0x80) return false;
  }
  return true;
}

}  // namespace

Napi::Array PackedValues::AsArray(Napi::Env env) const {
  Napi::Array out = Napi::Array::New(env, count);
  for (size_t i = 0; i < count; ++i) out.Set(static_cast<uint32_t>(i), Napi::Value(env, values[i]));
  return out;
}

PackedWriter::PackedWriter(Napi::Env env, size_t shared_numbers) : env_(env) {
  shared_ = Napi::Persistent(Napi::Float64Array::New(env, shared_numbers));
  numbers_.reserve(64);
  ascii_.reserve(256);
}

void PackedWriter::Start() {
  numbers_.clear();
  ascii_.clear();
  others_.clear();
}

void PackedWriter::Text(const char* data, size_t size) {
  if (IsAscii(data, size)) {
    Number(static_cast<double>(size));
    ascii_.append(data, size);
    return;
  }
  Number(kOwnText);
  others_.emplace_back(data, size);
}

void PackedWriter::Address(const IpBytes& address) {
  if (address.empty()) return NoText();
  Number(address.size == 4 ? 4 : 6);
  for (size_t i = 0; i < address.size; i += 4) {
    const uint32_t word = (static_cast<uint32_t>(address.bytes[i]) << 24) | (static_cast<uint32_t>(address.bytes[i + 1]) << 16) |
                          (static_cast<uint32_t>(address.bytes[i + 2]) << 8) | address.bytes[i + 3];
    Number(static_cast<double>(word));
  }
}

PackedValues PackedWriter::Finish() {
  Napi::Float64Array shared = shared_.Value();
  Napi::Float64Array numbers = numbers_.size() < shared.ElementLength() ? shared : Napi::Float64Array::New(env_, numbers_.size() + 1);
  double* data = numbers.Data();
  data[0] = static_cast<double>(numbers_.size());
  if (!numbers_.empty()) std::memcpy(data + 1, numbers_.data(), numbers_.size() * sizeof(double));
  PackedValues out;
  out.values[0] = numbers;
  NAPI_THROW_IF_FAILED(env_, napi_create_string_latin1(env_, ascii_.data(), ascii_.size(), &out.values[1]), PackedValues{});
  out.count = 2;
  if (!others_.empty()) {
    Napi::Array own = Napi::Array::New(env_, others_.size());
    for (size_t i = 0; i < others_.size(); ++i) own.Set(static_cast<uint32_t>(i), Napi::String::New(env_, others_[i]));
    out.values[2] = own;
    out.count = 3;
  }
  // A 10,000-echo ping needs 80,000 numbers once; the engine need not keep that much for good.
  if (numbers_.capacity() > kKeptNumbers) std::vector<double>().swap(numbers_);
  return out;
}

}  // namespace nettools

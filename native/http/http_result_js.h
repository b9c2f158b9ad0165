// An exchange's result as the plain object the http tool reads (src/native/http-engine.ts).
#pragma once

#include <napi.h>

#include "http/http_exchange.h"

namespace nettools::http {

Napi::Object ResultObject(Napi::Env env, const ExchangeResult& result);

}  // namespace nettools::http

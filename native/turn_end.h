// TurnEnd: calls one JavaScript function once at the end of the event-loop turn in which it was armed,
// from a libuv check handle started after uWebSockets.js's own.
#pragma once

#include <napi.h>

namespace nettools {

Napi::Function DefineTurnEnd(Napi::Env env);

}  // namespace nettools

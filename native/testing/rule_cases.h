// A C++ case table of rules: each case returns why its rule does not hold, or "" when it does. RunRules
// prints "ok <name>" or "not ok <name>: <why>" per case, the lines test/support/native-case-table.ts reads,
// and answers main's exit status: 1 if any failed.
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

namespace nettools::testing {

struct RuleCase {
  const char* name;
  std::function<std::string()> run;
};

template <size_t N>
int RunRules(const RuleCase (&cases)[N]) {
  int failed = 0;
  for (const RuleCase& c : cases) {
    const std::string why = c.run();
    if (why.empty()) {
      std::printf("ok %s\n", c.name);
    } else {
      std::printf("not ok %s: %s\n", c.name, why.c_str());
      ++failed;
    }
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace nettools::testing

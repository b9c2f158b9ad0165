#!/usr/bin/env bash
# npm run test:sanitizers: the test files that drive the native engines (ICMP over loopback and
# namespaces, DNS against Knot and the hostile peers, the tools and endpoints on top of them), with the
# addon built with -fsanitize=address,undefined (binding.gyp's `Sanitize` configuration: the same sources,
# into build/Sanitize/; build/Release/ is left alone) and loaded through ADDON_BUILDTYPE=Sanitize.
#
# The ASan runtime is gcc's libasan (the compiler node-gyp builds the addon with), preloaded: it must come
# first in the initial library list and node itself is not instrumented. Only node processes get it:
# asan-for-node-only.ts (loaded through NODE_OPTIONS into every node process of the run) takes LD_PRELOAD
# out of the environment of any other program the tests start (knotd, kdig, ip, python3), which are not
# ours and some of which hang under it. Memory errors abort; leaks are checked at every node exit.
# Reports are kept in build/sanitizer-reports/; any of ours (report-owner.ts says whose) fails the run.
# Usage: test/sanitizers/run.sh [uvu file pattern]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# test/mtr but budgets.test.js, and test/tools but http/budgets.test.js: those spawn whole servers
# (dist/src/main.js, on one and two workers and on Redis) that exit with V8's heap pages still held, which
# LeakSanitizer reports by the hundred with every allocation inside V8 (MemoryChunk, the sweeper, the code
# registry), and that miss their 10 s start under ASan. The http check's own paths run in the other files.
pattern=${1:-'^(native|icmp|dns|tools|api|abuse)/(?!http/budgets\.test\.js$).*\.test\.js$|^mtr/(loopback|path|names|asn)\.test\.js$|^observability/probe\.test\.js$'}
reports="$root/build/sanitizer-reports"

echo "sanitizers: building build/Sanitize/nettools.node" >&2
if [ ! -f build/Makefile ]; then
  node-gyp configure || { echo "sanitizers: FAIL node-gyp configure"; exit 1; }
fi
# The Makefile regenerates itself when binding.gyp changed; gcc as for the normal build.
if ! CC=gcc CXX=g++ make -C build BUILDTYPE=Sanitize -j"$(nproc)" >&2; then
  echo "sanitizers: FAIL building the Sanitize configuration"
  exit 1
fi
"$root/node_modules/.bin/tsc" -p tsconfig.json || { echo "sanitizers: FAIL tsc"; exit 1; }

libasan=$(g++ -print-file-name=libasan.so)
[ -f "$libasan" ] || { echo "sanitizers: FAIL no libasan.so next to g++ ($libasan)"; exit 1; }
rm -rf "$reports"
mkdir -p "$reports"

export ADDON_BUILDTYPE=Sanitize
export LD_PRELOAD="$libasan"
# detect_leaks: LeakSanitizer at every exit; suppressions: test/sanitizers/lsan.supp (Node/V8 only).
export NODE_OPTIONS="--require $root/dist/test/sanitizers/asan-for-node-only.js ${NODE_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:log_path=$reports/asan:log_exe_name=1"
export LSAN_OPTIONS="suppressions=$root/test/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$reports/ubsan:log_exe_name=1"

node node_modules/uvu/bin.js dist/test "$pattern" -r "$root/dist/test/support/before-hook-failures.js"
status=$?
unset LD_PRELOAD

# Each report is read for whose it is (report-owner.ts): a leak that JavaScript allocated, which one of our
# callbacks called, is Node's (LeakSanitizer does not see V8's heap, where the block's owner lives); it is
# listed but does not fail the run. Everything else fails it.
all=$(find "$reports" -type f | sort)
ours=""
if [ -n "$all" ]; then
  # One line a report, "ours <name>: why" or "node <name>: why"; each report read once.
  # shellcheck disable=SC2086
  verdicts=$(node "$root/dist/test/sanitizers/report-owner.js" $all)
  printf '%s\n' "$verdicts" | sed 's/^/sanitizers: /'
  for name in $(printf '%s\n' "$verdicts" | sed -n 's/^ours \([^:]*\):.*/\1/p'); do ours="$ours $reports/$name"; done
fi
if [ -n "$ours" ]; then
  echo "sanitizers: FAIL $(echo $ours | wc -w) report(s) from node processes, kept in $reports:"
  for f in $ours; do
    echo "--- $f"
    grep -E 'ERROR:|SUMMARY:|runtime error:|^    #[0-9]+ .*(native/|nettools)' "$f" | head -20
  done
  # One line per report that the run's closing list repeats (a long log's end is what CI shows).
  for f in $ours; do
    echo "sanitizers: report $(basename "$f"): $(grep -m1 -E 'SUMMARY:|runtime error:' "$f" | cut -c1-300) at $(grep -m1 -E '^    #[0-9]+ .*(native/|nettools)' "$f" | sed -E 's/^ +//' | cut -c1-200)"
  done
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "sanitizers: the tests failed under the sanitizer build (exit $status)"
  exit "$status"
fi
echo "sanitizers: PASS no reports of ours from node processes"

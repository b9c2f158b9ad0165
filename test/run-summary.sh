#!/usr/bin/env bash
# The plain closing line of a test run: "N passed, N failed" (", N skipped" when some were), alone on the
# last line, with the failed tests named just above it. A long run's end is what one sees, and c8's
# coverage table would otherwise be the last thing printed.
#
#   bash test/run-summary.sh COMMAND...   runs COMMAND (its output shown as it comes), then the summary;
#                                         exits 1 if anything failed, else 0
#   source test/run-summary.sh            defines count_log, which .ci/run uses for each of its steps
#
# What counts, read from the command's output (colours stripped):
# - uvu's "Total: / Passed: / Skipped:" block of each run; Total - Passed failed (uvu's Total leaves the
#   skipped tests out). A suite whose before hook threw counts its tests there as not passed
#   (test/support/before-hook-failures.ts);
# - one "fuzz: PASS|FAIL <target>" line per libFuzzer target;
# - one failed per "sanitizers: FAIL" line (test/sanitizers/run.sh: a report from node, a failed build);
# - c8's coverage threshold check: one failed whatever the number of metrics below their threshold;
# - a command that exits non-zero with nothing counted as failed (a compile error, a crash before uvu
#   printed its block): one failed.
# Names: uvu's indented "FAIL suite "test"" lines, before hooks that threw, failed fuzz targets, the
# sanitizer run's "sanitizers: FAIL" and "sanitizers: report" lines (each report's summary and where),
# the coverage check. The summary's own lines are not indented, so counting a log that holds one (as
# .ci/run does with npm test's) counts nothing twice.

# count_log LOG STATUS: sets COUNT_PASSED, COUNT_FAILED, COUNT_SKIPPED and COUNT_NAMES (one
# "FAIL ..." line per name, possibly fewer lines than COUNT_FAILED: uvu names no test of a failed hook).
count_log() {
  local log=$1 status=$2 plain total passed skipped failed coverage names
  plain=$(sed 's/\x1b\[[0-9;]*m//g' "$log")
  total=$(printf '%s\n' "$plain" | awk '/^  Total:/ {s += $2} END {print s + 0}')
  passed=$(printf '%s\n' "$plain" | awk '/^  Passed:/ {s += $2} END {print s + 0}')
  skipped=$(printf '%s\n' "$plain" | awk '/^  Skipped:/ {s += $2} END {print s + 0}')
  failed=$((total - passed))
  passed=$((passed + $(printf '%s\n' "$plain" | grep -c '^fuzz: PASS')))
  failed=$((failed + $(printf '%s\n' "$plain" | grep -c '^fuzz: FAIL')))
  failed=$((failed + $(printf '%s\n' "$plain" | grep -c '^sanitizers: FAIL')))
  names=$(
    printf '%s\n' "$plain" | grep -E '^ +FAIL ' | sed -E 's/^ +FAIL +/FAIL /; s/ +"/ "/'
    printf '%s\n' "$plain" | sed -nE 's/^✘ before hook failed in (.*); its tests did not run:$/FAIL \1 (its before hook threw; its tests did not run)/p'
    printf '%s\n' "$plain" | sed -nE 's/^fuzz: FAIL /FAIL fuzz target /p'
    printf '%s\n' "$plain" | sed -nE 's/^sanitizers: FAIL /FAIL sanitizers: /p; s/^sanitizers: report /FAIL sanitizers: report /p'
  )
  coverage=$(printf '%s\n' "$plain" | grep -E '^ERROR: Coverage for ' | sed -E 's/^ERROR: Coverage for ([a-z]+) \(([^)]*)\) does not meet global threshold \(([^)]*)\).*/\1 \2 < \3/' | paste -sd ';' | sed 's/;/; /g')
  if [ -n "$coverage" ]; then
    failed=$((failed + 1))
    names=$(printf '%s\n%s' "$names" "FAIL coverage threshold: $coverage")
  fi
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
    names=$(printf '%s\n%s' "$names" "FAIL exited with status $status and no failed test counted (see the output above)")
  fi
  COUNT_PASSED=$passed
  COUNT_FAILED=$failed
  COUNT_SKIPPED=$skipped
  COUNT_NAMES=$(printf '%s\n' "$names" | sed '/^$/d')
}

# The closing line alone: "N passed, N failed", and ", N skipped" when some were.
summary_line() {
  if [ "${3:-0}" -gt 0 ]; then echo "$1 passed, $2 failed, $3 skipped"; else echo "$1 passed, $2 failed"; fi
}

run_and_summarize() {
  local status
  summary_log=$(mktemp)
  trap 'rm -f "$summary_log"' EXIT
  "$@" 2>&1 | tee "$summary_log"
  status=${PIPESTATUS[0]}
  count_log "$summary_log" "$status"
  echo
  if [ -n "$COUNT_NAMES" ]; then
    echo "failed:"
    printf '%s\n' "$COUNT_NAMES"
  fi
  summary_line "$COUNT_PASSED" "$COUNT_FAILED" "$COUNT_SKIPPED"
  [ "$COUNT_FAILED" -eq 0 ]
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  if [ $# -eq 0 ]; then
    echo "usage: bash test/run-summary.sh COMMAND..." >&2
    exit 2
  fi
  run_and_summarize "$@"
fi

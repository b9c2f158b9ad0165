#!/usr/bin/env bash
# Builds every libFuzzer target (ASan + UBSan, see build.sh), fuzzes each for N seconds starting from its
# seed corpus, then replays the committed regression corpus through it.
# Usage: native/fuzz/run.sh [--seconds N] [name_fuzz ...]      (npm run fuzz -- --seconds N)
#
# Corpora, per target <base>_fuzz.cc:
#   native/fuzz/corpus/<base>/        seeds: real or hand-built packets, the starting point of each run
#   native/fuzz/regressions/<base>/   inputs that once crashed or that hit one parser rule each; replayed
#                                     one by one every run (see regressions/README.md)
# Results, all under native/fuzz/out/ (ignored by git):
#   crashes/<name>/   the input of any crash, leak, sanitizer report or timeout (libFuzzer's artifacts)
#   logs/<name>.log   libFuzzer's output of the last run
#   work/<name>/      inputs found during the last run (fresh each run; seeds are never written to)
# Prints one "fuzz: PASS <name>" or "fuzz: FAIL <name> ..." line per target and exits 1 if any failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out"
seconds=20
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a value}; shift 2 ;;
    --seconds=*) seconds=${1#--seconds=}; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "run.sh: --seconds takes a whole number, got '$seconds'" >&2; exit 2; }
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$here"/*_fuzz.cc; do targets+=("$(basename "$f" .cc)"); done
fi

if ! "$here/build.sh" "${targets[@]}"; then
  echo "fuzz: FAIL build (native/fuzz/build.sh)"
  exit 1
fi

# Leaks count as failures (libFuzzer's -detect_leaks is on by default under ASan); UBSan stops at the
# first report (build.sh uses -fno-sanitize-recover) with a stack, so the crash input is written.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

failed=0
for t in "${targets[@]}"; do
  base=${t%_fuzz}
  bin="$out/$t"
  seeds="$here/corpus/$base"
  regressions="$here/regressions/$base"
  crashes="$out/crashes/$t"
  work="$out/work/$t"
  log="$out/logs/$t.log"
  rm -rf "$work" "$crashes"
  mkdir -p "$work" "$crashes" "$(dirname "$log")"
  : >"$log"
  dirs=("$work")
  for d in "$seeds" "$regressions"; do
    if [ -d "$d" ]; then dirs+=("$d"); else echo "run.sh: $t has no ${d#"$here"/} (starting without it)" >&2; fi
  done

  verdict=ok
  if [ "$seconds" -gt 0 ]; then
    echo "run.sh: fuzzing $t for ${seconds}s" >&2
    # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a parser must not balloon on one packet.
    "$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
      -artifact_prefix="$crashes/" "${dirs[@]}" >>"$log" 2>&1 || verdict="fuzzing found a failure"
  fi

  if [ "$verdict" = ok ] && [ -d "$regressions" ]; then
    mapfile -t inputs < <(find "$regressions" -type f ! -name '*.md' | sort)
    if [ ${#inputs[@]} -gt 0 ]; then
      echo "run.sh: replaying ${#inputs[@]} regression inputs through $t" >&2
      # All in one process; when that fails, one process per input, so every failing input is named
      # and kept, not only the first.
      if ! "$bin" -timeout=10 -rss_limit_mb=1024 "${inputs[@]}" >>"$log" 2>&1; then
        verdict="a regression input failed"
        for input in "${inputs[@]}"; do
          "$bin" -timeout=10 -rss_limit_mb=1024 "$input" >>"$log" 2>&1 ||
            cp "$input" "$crashes/regression-$(basename "$input")"
        done
      fi
    fi
  fi

  if [ "$verdict" = ok ]; then
    stats=$(grep -E '^stat::number_of_executed_units' "$log" | tail -1 | awk '{print $2}')
    echo "fuzz: PASS $t (${stats:-0} runs in ${seconds}s, regressions replayed)"
  else
    failed=$((failed + 1))
    echo "fuzz: FAIL $t: $verdict; log $log"
    grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY:|Test unit written to|ALARM' "$log" | head -20
    for f in "$crashes"/*; do
      [ -f "$f" ] || continue
      echo "  input kept at $f; reproduce with: $bin $f"
      head -c 256 "$f" | od -An -tx1 | head -8
    done
  fi
done

[ "$failed" -eq 0 ]

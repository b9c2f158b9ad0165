#!/usr/bin/env bash
# Builds every libFuzzer target native/fuzz/<name>_fuzz.cc into native/fuzz/out/<name>_fuzz.
# Each target names the pure C++ sources it links in a first-lines comment:
#   // fuzz-sources: icmp/icmp_codec.cc other/file.cc      (paths relative to native/)
# Usage: native/fuzz/build.sh [name_fuzz ...]   (default: all).
# Run:   native/fuzz/run.sh --seconds N (npm run fuzz), or by hand:
#        native/fuzz/out/<name>_fuzz -max_total_time=60 -max_len=1600 <scratch-dir> native/fuzz/corpus/<name without _fuzz>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
native=$(dirname "$here")
out="$here/out"
mkdir -p "$out"
CXX=${CXX:-clang++}
command -v "$CXX" >/dev/null || { echo "build.sh: $CXX not found (apt-get install clang)" >&2; exit 1; }

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$here"/*_fuzz.cc; do targets+=("$(basename "$f" .cc)"); done
fi

for t in "${targets[@]}"; do
  src="$here/$t.cc"
  deps=$(sed -n 's#^// fuzz-sources:##p' "$src" | head -1)
  dep_paths=()
  for d in $deps; do dep_paths+=("$native/$d"); done
  echo "build.sh: $t <- ${deps:-(none)}" >&2
  "$CXX" -std=c++17 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$native" "$src" "${dep_paths[@]}" -o "$out/$t"
done

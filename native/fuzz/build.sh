#!/usr/bin/env bash
# Builds each libFuzzer target from the pure C++ codecs (no Node headers needed).
# Usage: native/fuzz/build.sh            -> native/fuzz/out/<name>_fuzz
#        mkdir -p native/fuzz/out/corpus && native/fuzz/out/dns_response_fuzz -max_total_time=60 \
#          native/fuzz/out/corpus native/fuzz/corpus/dns_response   # new inputs land in out/, seeds stay clean
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
native="$(dirname "$here")"
out="$here/out"
mkdir -p "$out"
flags=(-std=c++17 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I "$native")

dns_codec=("$native"/dns/dns_reader.cc "$native"/dns/dns_name.cc "$native"/dns/dns_message.cc
  "$native"/dns/dns_query.cc "$native"/dns/dns_answer.cc "$native"/dns/dns_status.cc)
for target in dns_response_fuzz dns_name_fuzz; do
  clang++ "${flags[@]}" "$here/$target.cc" "${dns_codec[@]}" -o "$out/$target"
  echo "built $out/$target"
done

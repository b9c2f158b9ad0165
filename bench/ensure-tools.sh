#!/usr/bin/env bash
# The benchmark drives real tools: wrk for HTTP load, Knot as resolvers, dnsperf, iputils ping and
# fping as references. On Debian (as root) install what is missing.
set -euo pipefail

declare -A wanted=(
  [wrk]=wrk
  [knotd]=knot
  [kdig]=knot-dnsutils
  [dnsperf]=dnsperf
  [ping]=iputils-ping
  [fping]=fping
)

missing=()
for cmd in "${!wanted[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${wanted[$cmd]}")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "bench setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

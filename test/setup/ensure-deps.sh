#!/usr/bin/env bash
# The tests run against real Knot DNS servers, real network namespaces and real iptables rules.
# On a fresh Debian machine (as root) install what is missing instead of skipping tests
# (the benchmark suite's tests also run wrk, iputils ping, fping and dnsperf for real; bench/ensure-tools.sh
# uses this list too; python3 runs the ICMP test responder inside namespaces; python3's urllib3 and curl
# read streamed responses as their users do; clang builds the libFuzzer targets and the sanitizer build
# of the addon; podman-compose brings up deploy/compose/compose.yaml in test/container/compose.test.ts,
# with the podman .ci/container.sh installs). unbound is the validating resolver of the DNSSEC tests and the
# DoT resolver of the DoT tests (ss, of iproute2, counts its connections), which
# run private instances with their own config files: its Debian services are masked before it is
# installed and never started (unbound-resolvconf would point the machine's resolver at it). prometheus is
# the real scraper of the /probe tests, run with its own config on a loopback port: its service is masked
# the same way (it would listen on 0.0.0.0:9090).
set -euo pipefail

declare -A wanted=(
  [knotd]=knot
  [kdig]=knot-dnsutils
  [ip]=iproute2
  [iptables]=iptables
  [wrk]=wrk
  [ping]=iputils-ping
  [fping]=fping
  [dnsperf]=dnsperf
  [python3]=python3
  [nginx]=nginx
  [openssl]=openssl
  [systemd-analyze]=systemd
  [setpriv]=util-linux
  [chromium]=chromium
  [redis-server]=redis-server
  [redis-cli]=redis-tools
  [faketime]=faketime
  [clang++]=clang
  [traceroute]=traceroute
  [mtr]=mtr-tiny
  [curl]=curl
  [podman-compose]=podman-compose
  [unbound]=unbound
  [prometheus]=prometheus
  [callgrind_control]=valgrind
)

missing=()
for cmd in "${!wanted[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${wanted[$cmd]}")
done
# libFuzzer and the sanitizer runtimes of Debian's clang come in a package of their own.
if ! command -v clang++ >/dev/null 2>&1 ||
  ! ls "$(clang++ -print-resource-dir)"/lib/linux/libclang_rt.fuzzer-"$(uname -m)".a >/dev/null 2>&1; then
  missing+=(libclang-rt-dev)
fi

# urllib3 is a module, not a command: the stream tests read streams with it as Python's requests does,
# through Debian's python3 (another python3 may come first on PATH).
if ! /usr/bin/python3 -c 'import urllib3' >/dev/null 2>&1; then
  missing+=(python3-urllib3)
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  if [[ " ${missing[*]} " == *" unbound "* || " ${missing[*]} " == *" prometheus "* ]]; then
    mkdir -p /etc/systemd/system
    for unit in unbound.service unbound-resolvconf.service prometheus.service; do
      [ -e "/etc/systemd/system/$unit" ] || ln -s /dev/null "/etc/systemd/system/$unit"
    done
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

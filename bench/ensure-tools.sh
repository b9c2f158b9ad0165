#!/usr/bin/env bash
# The benchmark drives the same real tools as the tests (wrk, Knot, dnsperf, iputils ping, fping):
# one list, one installer.
set -euo pipefail
exec bash "$(dirname "$0")/../test/setup/ensure-deps.sh"

#!/usr/bin/env bash
# `npm run try`: nettools on 127.0.0.1 with nothing leaving the machine. A private Knot DNS serves the
# zone try.test on loopback, seen by nettools as two resolvers (127.0.0.1 and 127.0.0.2, so the DNS tool
# shows several); private targets are allowed, so 127.0.0.1 and try.test can be pinged and traced.
# Ctrl-C or SIGTERM stops both and removes the temporary directory.
#
# PORT (8080) is the HTTP port, TRY_DNS_PORT (5354) Knot's. knotd is not installed for you: a trial
# should not change the system; the line to run is printed instead.
set -uo pipefail
cd "$(dirname "$0")/.."

port=${PORT:-8080}
dns_port=${TRY_DNS_PORT:-5354}
knotd=$(command -v knotd) || knotd=/usr/sbin/knotd # /usr/sbin is not on every user's PATH
if [ ! -x "$knotd" ]; then
  echo "npm run try needs Knot DNS (knotd): install it with 'sudo apt-get install knot', then run it again." >&2
  exit 1
fi
if [ ! -f dist/src/main.js ]; then
  echo "nettools is not built yet: run 'npm ci' first." >&2
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/nettools-try-XXXXXX")
mkdir "$dir/run" "$dir/db" "$dir/zones"
knot_pid=""
server_pid=""

stop() {
  # Ctrl-C reaches npm, this script, knotd and nettools at once, and npm passes it on once more: a second
  # signal must not cut the clean-up short.
  trap '' INT TERM
  trap - EXIT
  [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null
  [ -n "$knot_pid" ] && kill -TERM "$knot_pid" 2>/dev/null
  wait # for both: nothing of the trial outlives it
  rm -rf "$dir"
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap stop EXIT

cat > "$dir/zones/try.test.zone" <<'ZONE'
$ORIGIN try.test.
$TTL 300
@    SOA  ns hostmaster 1 3600 900 604800 60
@    NS   ns
@    A    127.0.0.1
@    AAAA ::1
@    MX   10 mail
@    TXT  "nettools trial zone: every name here is this machine"
ns   A    127.0.0.1
mail A    127.0.0.1
mail AAAA ::1
ZONE

# knotd drops to the user "knot" unless told otherwise; it runs as whoever started the trial.
cat > "$dir/knot.conf" <<CONF
server:
    rundir: "$dir/run"
    user: $(id -un):$(id -gn)
    listen: [ 127.0.0.1@$dns_port, 127.0.0.2@$dns_port ]
    udp-workers: 1
    tcp-workers: 1
    background-workers: 1
database:
    storage: "$dir/db"
log:
  - target: stderr
    any: warning
template:
  - id: default
    storage: "$dir/zones"
    file: "%s.zone"
zone:
  - domain: try.test
    dnssec-signing: on   # Knot signs the zone itself, so an example can show RRSIGs
CONF

"$knotd" -c "$dir/knot.conf" 2> "$dir/knotd.log" &
knot_pid=$!
knotc=$(dirname "$knotd")/knotc
for _ in $(seq 1 100); do
  if ! kill -0 "$knot_pid" 2>/dev/null; then
    echo "Knot DNS did not start (is port $dns_port taken? TRY_DNS_PORT picks another):" >&2
    cat "$dir/knotd.log" >&2
    exit 1
  fi
  "$knotc" -c "$dir/knot.conf" -t 1 zone-read try.test @ RRSIG 2>/dev/null | grep -q RRSIG && break
  sleep 0.1
done

HOST=127.0.0.1 PORT=$port \
  NETTOOLS_RESOLVERS="local-a=127.0.0.1:$dns_port,local-b=127.0.0.2:$dns_port" \
  NETTOOLS_ALLOW_PRIVATE_TARGETS=true \
  node dist/src/main.js &
server_pid=$!
health() {
  node -e 'require("http").get(process.argv[1], (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on("error", () => process.exit(1))' \
    "http://127.0.0.1:$port/health"
}
for _ in $(seq 1 100); do
  kill -0 "$server_pid" 2>/dev/null || exit 1 # it said why on its way out
  health && break
  sleep 0.1
done

cat <<TEXT

nettools is on http://127.0.0.1:$port/ (the live page; the API reference is /docs), asking the Knot DNS
on 127.0.0.1 and 127.0.0.2 port $dns_port, which serves try.test. Nothing leaves this machine.
From another terminal (the README's Examples all run against this):

  curl -s localhost:$port/api/tools/ping -H 'content-type: application/json' -d '{"host":"try.test"}'
  curl -s localhost:$port/api/tools/dns -H 'content-type: application/json' -d '{"domain":"try.test"}'
  curl -s localhost:$port/api/tools/traceroute -H 'content-type: application/json' -d '{"host":"127.0.0.1"}'

Ctrl-C stops nettools and Knot.
TEXT

# Until Ctrl-C, SIGTERM, or one of the two ending on its own (then the other is stopped too).
wait -n "$server_pid" "$knot_pid"

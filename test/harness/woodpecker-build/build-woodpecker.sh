#!/usr/bin/env bash
# Builds woodpecker-server and a local-backend-only woodpecker-agent for one Woodpecker tag
# into a per-tag cache directory. A cache hit returns at once.
#
#   build-woodpecker.sh                     the pinned tag (test/harness/woodpecker-version)
#   build-woodpecker.sh v3.11.0             another tag (see test/harness/woodpecker-versions)
#   build-woodpecker.sh --src DIR [TAG]     build from the source archives in DIR
#
# Where the source comes from, in this order:
#   1. --src DIR, or WOODPECKER_SRC_DIR=DIR: archives in DIR (woodpecker-<tag>.tar.gz and
#      xormigrate-v*.tar.gz, checked against DIR/SHA256SUMS). The proxy is not asked.
#   2. The Go module proxy (what a contributor with ordinary network access gets).
#   3. When the proxy refuses: the same archives in ../shared/woodpecker-src beside the
#      checkout, if it is there.
# Both failing is one error naming both.
#
# Cache: ${WOODPECKER_CACHE_DIR:-$HOME/.cache/woodpecker-ci-mcp}/woodpecker-<tag>/, with a
# SOURCE file saying what the binaries were built from. The source is part of the cache key:
# an archive with another digest for the same tag, or a changed agent-local.go, rebuilds.
# Binaries the demo fetched from Woodpecker's release or images (SOURCE "release ..." or
# "image ...") count as a hit unless --src asks for a build.
#
# A long step is never silent: every ${WOODPECKER_BUILD_PROGRESS_SECONDS:-20} s it prints what
# it is doing and the time so far. At the end it prints what Go keeps (module and build caches).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$(cd "$here/.." && pwd)"
repo_root="$(cd "$harness/../.." && pwd)"

src_dir="${WOODPECKER_SRC_DIR:-}"
tag=""
while (($# > 0)); do
  case "$1" in
    --src) src_dir="${2:?--src needs a directory}"; shift 2 ;;
    --src=*) src_dir="${1#--src=}"; shift ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build-woodpecker.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) tag="$1"; shift ;;
  esac
done
[[ -n "$tag" ]] || tag="$(tr -d '[:space:]' < "$harness/woodpecker-version")"
case "$tag" in v[0-9]*|main-*) ;; [0-9]*) tag="v$tag" ;; esac

# The version the build reports: from the versions table, else the tag without its "v".
version="$(awk -v t="$tag" '$1 == t { print $2; exit }' "$harness/woodpecker-versions")"
if [[ -z "$version" ]]; then
  case "$tag" in
    v[0-9]*) version="${tag#v}" ;;
    *) echo "build-woodpecker.sh: $tag is not in test/harness/woodpecker-versions; add a line giving the version it reports" >&2; exit 2 ;;
  esac
fi

module="go.woodpecker-ci.org/woodpecker/v3"
cache_root="${WOODPECKER_CACHE_DIR:-$HOME/.cache/woodpecker-ci-mcp}"
target="$cache_root/woodpecker-$tag"
default_src_dir="$(cd "$repo_root/.." && pwd)/shared/woodpecker-src"
agent_digest="$(sha256sum "$here/agent-local.go" | cut -c1-16)"

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

# Prints the path of the one archive in $1 matching the glob $2, or nothing.
archive_in() {
  local dir="$1" pattern="$2" found=() path
  shopt -s nullglob
  # A pattern without wildcards expands to itself even when nothing is there: keep files only.
  for path in "$dir"/$pattern; do [[ -f "$path" ]] && found+=("$path"); done
  shopt -u nullglob
  ((${#found[@]} == 1)) && printf '%s\n' "${found[0]}"
  return 0
}

# The SOURCE line for a build from the archives in $1 (without verifying them).
archive_source_line() {
  local dir="$1" wp xm
  wp="$(archive_in "$dir" "woodpecker-$tag.tar.gz")"
  xm="$(archive_in "$dir" "xormigrate-v*.tar.gz")"
  [[ -n "$wp" && -n "$xm" ]] || return 1
  echo "archive $(basename "$wp") sha256=$(sha_of "$wp") $(basename "$xm") sha256=$(sha_of "$xm") agent-local=$agent_digest version=$version"
}
proxy_source_line() { echo "proxy $module@$proxy_ref agent-local=$agent_digest version=$version"; }

# main-<sha> is a commit; the proxy resolves a commit hash to a pseudo-version.
case "$tag" in main-*) proxy_ref="${tag#main-}" ;; *) proxy_ref="$tag" ;; esac

# --- cache ------------------------------------------------------------------------------
cached_source=""
if [[ -x "$target/woodpecker-server" && -x "$target/woodpecker-agent" && -f "$target/SOURCE" ]]; then
  cached_source="$(cat "$target/SOURCE")"
fi
if [[ -n "$cached_source" ]]; then
  if [[ -n "$src_dir" ]]; then
    want="$(archive_source_line "$src_dir" || true)"
  elif [[ "$cached_source" == proxy* ]]; then
    want="$(proxy_source_line)"
  elif [[ "$cached_source" == release* || "$cached_source" == image* ]]; then
    want="$cached_source"
  else
    # Built from archives: still the archive beside the checkout? Then it must match; if
    # that folder is gone, the cached build is the best there is.
    want="$(archive_source_line "$default_src_dir" || echo "$cached_source")"
  fi
  if [[ "$cached_source" == "$want" ]]; then
    echo "woodpecker $tag: cached in $target (source: ${cached_source%% agent-local=*})"
    exit 0
  fi
  echo "woodpecker $tag: the cache in $target was built from another source; rebuilding"
  echo "  cached: $cached_source"
  echo "  now:    ${want:-(archives in $src_dir are missing)}"
fi

for tool in go gcc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    # gcc: the server needs cgo for SQLite; without a C compiler Go silently builds without it.
    echo "build-woodpecker.sh: '$tool' is not installed; it is needed to build woodpecker $tag" >&2
    exit 1
  fi
done

work="$(mktemp -d "${TMPDIR:-/tmp}/woodpecker-build-$tag.XXXXXX")"
ticker=""
stop_ticker() { if [[ -n "$ticker" ]]; then kill "$ticker" 2>/dev/null || true; wait "$ticker" 2>/dev/null || true; ticker=""; fi; }
trap 'stop_ticker; chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"' EXIT
# A signal ends the build (and runs the EXIT trap above) instead of waiting for go to finish.
trap 'exit 130' INT
trap 'exit 143' TERM
src="$work/src"

# Progress for a person, on fd 3 (the terminal's stdout): the functions below run inside
# $(...), which would swallow a line on fd 1.
exec 3>&1
build_started=$SECONDS
progress_every="${WOODPECKER_BUILD_PROGRESS_SECONDS:-20}"
# Starts a background line every $progress_every s: "still <what> (<n> s so far)".
start_ticker() {
  stop_ticker
  local what="$1"
  (
    # `wait` returns at a signal where a foreground `sleep` would hold it off until it ends.
    sleeper=""
    trap '[[ -n "$sleeper" ]] && kill "$sleeper" 2>/dev/null; exit 0' TERM
    trap - EXIT INT
    while :; do
      sleep "$progress_every" & sleeper=$!
      wait "$sleeper"
      echo "woodpecker $tag: still $what ($((SECONDS - build_started)) s so far)" >&3
    done
  ) &
  ticker=$!
}

# Unpacks and verifies the archives in $1 into $src; prints why not on failure.
from_archives() {
  local dir="$1" wp xm sums name want got
  if [[ ! -d "$dir" ]]; then echo "no directory $dir"; return 1; fi
  wp="$(archive_in "$dir" "woodpecker-$tag.tar.gz")"
  xm="$(archive_in "$dir" "xormigrate-v*.tar.gz")"
  if [[ -z "$wp" ]]; then echo "$dir has no woodpecker-$tag.tar.gz"; return 1; fi
  if [[ -z "$xm" ]]; then echo "$dir has no single xormigrate-v*.tar.gz"; return 1; fi
  sums="$dir/SHA256SUMS"
  if [[ ! -f "$sums" ]]; then echo "$dir has no SHA256SUMS to check the archives against"; return 1; fi
  for archive in "$wp" "$xm"; do
    name="$(basename "$archive")"
    want="$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1; exit }' "$sums")"
    got="$(sha_of "$archive")"
    if [[ -z "$want" ]]; then echo "$sums lists no digest for $name"; return 1; fi
    if [[ "$want" != "$got" ]]; then echo "$name does not match $sums (expected $want, got $got)"; return 1; fi
  done
  tar -xzf "$wp" -C "$work"
  tar -xzf "$xm" -C "$work"
  local wp_dir="$work/woodpecker-$tag" xm_dir
  xm_dir="$(basename "$xm" .tar.gz)"
  if [[ ! -f "$wp_dir/go.mod" || ! -f "$work/$xm_dir/go.mod" ]]; then
    echo "the archives did not unpack to woodpecker-$tag/ and $xm_dir/ with a go.mod each"; return 1
  fi
  mv "$wp_dir" "$src"
  mv "$work/$xm_dir" "$work/xormigrate"
  # xormigrate's module host is refused by the proxy as well: point go.mod at the archive.
  (cd "$src" && go mod edit -replace "src.techknowlogick.com/xormigrate=../xormigrate")
  source_line="$(archive_source_line "$dir")"
  echo "woodpecker $tag: source: $(basename "$wp") from $dir (sha256 verified), xormigrate from $(basename "$xm")"
}

from_proxy() {
  local download_json module_dir
  if ! download_json="$(go mod download -json "$module@$proxy_ref" 2>"$work/download.err")"; then
    cat "$work/download.err"
    printf '%s' "$download_json" | sed -n 's/.*"Error": *"\(.*\)".*/\1/p'
    return 1
  fi
  module_dir="$(printf '%s' "$download_json" | sed -n 's/^[[:space:]]*"Dir": *"\(.*\)",\{0,1\}$/\1/p')"
  if [[ -z "$module_dir" || ! -d "$module_dir" ]]; then echo "go mod download gave no module directory"; return 1; fi
  # The module cache is read-only: build a copy.
  cp -R "$module_dir" "$src"
  chmod -R u+w "$src"
  source_line="$(proxy_source_line)"
  echo "woodpecker $tag: source: $module@$proxy_ref from the Go module proxy"
}

source_line=""
if [[ -n "$src_dir" ]]; then
  if ! why="$(from_archives "$src_dir")"; then
    echo "build-woodpecker.sh: cannot build woodpecker $tag from $src_dir: $why" >&2
    exit 1
  fi
  echo "$why"
else
  echo "woodpecker $tag: asking the Go module proxy for $module@$proxy_ref"
  start_ticker "downloading $module@$proxy_ref from the Go module proxy"
  if ! proxy_out="$(from_proxy)"; then
    stop_ticker
    echo "woodpecker $tag: the proxy refused; trying the archives in $default_src_dir"
    if ! archive_out="$(from_archives "$default_src_dir")"; then
      {
        echo "build-woodpecker.sh: no source for woodpecker $tag."
        echo "  Go module proxy: $(printf '%s' "$proxy_out" | tr '\n' ' ')"
        echo "  archives: $archive_out"
        echo "Give a folder of source archives with --src DIR or WOODPECKER_SRC_DIR, or put prebuilt"
        echo "binaries at $target/woodpecker-server and $target/woodpecker-agent with a SOURCE file."
      } >&2
      exit 1
    fi
    echo "$archive_out"
  else
    stop_ticker
    echo "$proxy_out"
  fi
fi
# The functions ran in subshells: recompute what they found.
if [[ -n "$src_dir" ]]; then source_line="$(archive_source_line "$src_dir")"
elif [[ -n "${archive_out:-}" ]]; then source_line="$(archive_source_line "$default_src_dir")"
else source_line="$(proxy_source_line)"; fi

# web/dist is embedded by the server but not part of the Go sources: an empty page will do.
mkdir -p "$src/web/dist" "$src/cmd/agent-local"
echo '<!doctype html><html><body>woodpecker-ci-mcp test build: no web UI</body></html>' > "$src/web/dist/index.html"
cp "$here/agent-local.go" "$src/cmd/agent-local/main.go"

ldflags="-X $module/version.Version=$version"
out="$work/out"
mkdir -p "$out"
started=$SECONDS
echo "woodpecker $tag: building woodpecker-server $version (cgo, SQLite; the first time Go downloads its modules, minutes)"
start_ticker "downloading modules for and compiling woodpecker-server"
(cd "$src" && CGO_ENABLED=1 go build -ldflags "$ldflags" -o "$out/woodpecker-server" ./cmd/server)
stop_ticker
echo "woodpecker $tag: building woodpecker-agent $version (local backend only)"
start_ticker "compiling woodpecker-agent"
(cd "$src" && CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$out/woodpecker-agent" ./cmd/agent-local)
stop_ticker
printf '%s\n' "$source_line" > "$out/SOURCE"

# Publish the binaries at once, so a concurrent or interrupted build never leaves half a cache.
mkdir -p "$cache_root"
staging="$(mktemp -d "$cache_root/.woodpecker-$tag.XXXXXX")"
mv "$out/woodpecker-server" "$out/woodpecker-agent" "$out/SOURCE" "$staging/"
rm -rf "$target.old"
[[ -e "$target" ]] && mv -T "$target" "$target.old"
if ! mv -T "$staging" "$target" 2>/dev/null; then
  # Someone else published first: theirs is complete too.
  rm -rf "$staging"
fi
rm -rf "$target.old"
echo "woodpecker $tag: built into $target in $((SECONDS - started)) s"
# What stays on disk besides the binaries, so a person knows what to remove.
modcache="$(go env GOMODCACHE)"; buildcache="$(go env GOCACHE)"
size_of() { if [[ -d "$1" ]]; then du -sh "$1" 2>/dev/null | cut -f1; else echo 0; fi; }
echo "woodpecker $tag: Go keeps its module cache ($(size_of "$modcache") in $modcache) and build cache ($(size_of "$buildcache") in $buildcache); \`go clean -modcache -cache\` removes both"

#!/usr/bin/env bash
# Builds the image from the Containerfile and writes its software bill of materials as a
# file beside it: the CycloneDX JSON the image carries at /app/sbom.cdx.json (made by
# deploy/sbom.mjs in the build stage), copied out into <out>/<name>-<tag>.cdx.json.
#
#   npm run image                                   woodpecker-ci-mcp:<version>, SBOM in .
#   npm run image -- --tag registry.example.com/woodpecker-ci-mcp:0.1.0 --out dist-image
#   npm run image -- -- --build-arg NODE_IMAGE=...  anything after -- goes to the build
#
# CONTAINER_RUNTIME picks podman or docker; without it, the first of them on PATH.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(node -p "require('$root/package.json').version")"
tag="woodpecker-ci-mcp:$version"
out="."
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag="${2:?--tag needs an image name, e.g. woodpecker-ci-mcp:$version}"; shift 2 ;;
    --out) out="${2:?--out needs a folder for the SBOM file}"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-image.sh: unknown argument $1 (--tag NAME, --out DIR, -- build arguments)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"

runtime="${CONTAINER_RUNTIME:-}"
if [ -z "$runtime" ]; then
  for candidate in podman docker; do
    if command -v "$candidate" > /dev/null; then runtime="$candidate"; break; fi
  done
fi
[ -n "$runtime" ] || { echo "build-image.sh: neither podman nor docker is installed (or set CONTAINER_RUNTIME)" >&2; exit 1; }

# registry.example.com/team/woodpecker-ci-mcp:1.2 -> woodpecker-ci-mcp-1.2.cdx.json
name="${tag##*/}"
file="$out/${name/:/-}.cdx.json"

cd "$root"
"$runtime" build -t "$tag" -f Containerfile ${extra[@]+"${extra[@]}"} .

# The file inside the image, read without the server starting and without a network.
partial="$file.partial"
trap 'rm -f "$partial"' EXIT
"$runtime" run --rm --network none --entrypoint cat "$tag" /app/sbom.cdx.json > "$partial" || true
if ! components="$(node -e '
  const bom = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  if (bom.bomFormat !== "CycloneDX" || !Array.isArray(bom.components)) process.exit(1);
  console.log(bom.components.length);
' "$partial" 2> /dev/null)"; then
  echo "build-image.sh: /app/sbom.cdx.json of $tag is not a CycloneDX document; no SBOM written" >&2
  exit 1
fi
mv "$partial" "$file"
echo "build-image.sh: built $tag; its SBOM, $components npm packages (not Node or the base image's system packages): $file"

#!/usr/bin/env bash
# Runs the MCP Inspector's CLI (a client nobody here wrote) under Node 22, which it needs.
# Both are installed from the npm registry into a cache directory, not into node_modules,
# as scripts/conformance.sh does for the conformance suite. Arguments go to the Inspector:
#   bash scripts/inspector-cli.sh --method tools/list <command> <args>...
set -euo pipefail
inspector_version="2.12.0"
node22_version="22.23.3"
tools="${WOODPECKER_CACHE_DIR:-$HOME/.cache/woodpecker-ci-mcp}/inspector-${inspector_version}"
if [[ ! -x "$tools/node_modules/.bin/mcp-inspector" || ! -x "$tools/node_modules/.bin/node" ]]; then
  # On stderr: stdout is the Inspector's answer, which callers parse.
  echo "inspector-cli.sh: first use: downloading Node ${node22_version} and the MCP Inspector ${inspector_version} from npm into $tools (about 296 MB, once; usually under a minute)..." >&2
  install_started=$SECONDS
  mkdir -p "$tools"
  # npm 11 runs no install script a project has not allowed; the node package's preinstall
  # is what puts the Node 22 binary in place, so allow it (and only these) here.
  printf '{ "private": true, "allowScripts": { "node": true, %s } }\n' '"@modelcontextprotocol/inspector": true' > "$tools/package.json"
  npm install --prefix "$tools" --no-save --no-audit --no-fund "node@${node22_version}" "@modelcontextprotocol/inspector@${inspector_version}" >/dev/null 2>&1
  [[ -x "$tools/node_modules/.bin/node" && -x "$tools/node_modules/.bin/mcp-inspector" ]] ||
    { echo "inspector-cli.sh: Node ${node22_version} or the Inspector did not install into $tools (their install scripts must run)" >&2; exit 1; }
  echo "inspector-cli.sh: installed in $((SECONDS - install_started)) s; later runs start at once (remove $tools to free the space)" >&2
fi
exec "$tools/node_modules/.bin/node" "$tools/node_modules/.bin/mcp-inspector" --cli "$@"

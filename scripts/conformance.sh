#!/usr/bin/env bash
# Runs the MCP conformance suite's server scenarios that need no fixture tools against
# this server over Streamable HTTP. The suite needs Node 22, which is installed from the
# npm registry into a cache directory (not into node_modules, where its `node` binary
# would replace Node 20 for every npm script).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

suite_version="0.2.0-alpha.12"
node22_version="22.23.3"
tools="${WOODPECKER_CACHE_DIR:-$HOME/.cache/woodpecker-ci-mcp}/conformance-${suite_version}"
if [[ ! -x "$tools/node_modules/.bin/conformance" ]]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-save --no-audit --no-fund "node@${node22_version}" "@modelcontextprotocol/conformance@${suite_version}" >/dev/null
fi

# Scenarios that the suite can check on any server (the others call fixture tools such
# as test_elicitation that a product server does not have).
scenarios=(server-initialize server-session-lifecycle ping tools-list dns-rebinding-protection http-header-validation input-required-result-missing-input-response)

npm run -s build
port="${CONFORMANCE_PORT:-39391}"
WOODPECKER_URL=http://127.0.0.1:9 WOODPECKER_TOKEN=unused node dist/runtime/serve/main.js --http --port "$port" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/mcp" && break; sleep 0.1; done

passed=0
failed=0
for scenario in "${scenarios[@]}"; do
  if out=$("$tools/node_modules/.bin/node" "$tools/node_modules/.bin/conformance" server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" 2>&1) \
    && grep -q ", 0 failed" <<<"$out"; then
    echo "ok   $scenario: $(grep -o 'Passed: [0-9]*/[0-9]*' <<<"$out" | tail -1)"
    passed=$((passed + 1))
  else
    echo "FAIL $scenario"
    grep -E "FAILURE|Passed" <<<"$out" | sed 's/^/     /'
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
((failed == 0))

#!/usr/bin/env bash
# Runs every MCP conformance suite server scenario that applies to this server against it
# over Streamable HTTP, ending with one `N passed, N failed` line (one per scenario) that
# scripts/test.ts adds to the whole run. Checks that cannot pass here are listed, with the
# reason, in scripts/conformance-baseline.yaml; the scenarios not run are listed, with the
# reason, in docs/conformance.md. The suite needs Node 22, which is installed from the
# npm registry into a cache directory (not into node_modules, where its `node` binary
# would replace Node 20 for every npm script).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

suite_version="0.2.0-alpha.12"
node22_version="22.23.3"
tools="${WOODPECKER_CACHE_DIR:-$HOME/.cache/woodpecker-ci-mcp}/conformance-${suite_version}"
if [[ ! -x "$tools/node_modules/.bin/conformance" || ! -x "$tools/node_modules/.bin/node" ]]; then
  mkdir -p "$tools"
  # npm 11 runs no install script a project has not allowed; the node package's preinstall
  # is what puts the Node 22 binary in place, so allow it (and only these) here.
  printf '{ "private": true, "allowScripts": { "node": true, %s } }\n' '"@modelcontextprotocol/conformance": true' > "$tools/package.json"
  npm install --prefix "$tools" --no-save --no-audit --no-fund "node@${node22_version}" "@modelcontextprotocol/conformance@${suite_version}" >/dev/null
  [[ -x "$tools/node_modules/.bin/node" ]] || { echo "conformance.sh: Node ${node22_version} did not install into $tools (its preinstall script must run)" >&2; exit 1; }
fi
[[ "${1:-}" == "--install-only" ]] && exit 0

# Scenarios that apply to this server (the others call the suite's fixture tools, such as
# test_elicitation, or need prompts, resources or completions; see docs/conformance.md).
scenarios=(
  server-initialize server-session-lifecycle ping tools-list server-sse-multiple-streams dns-rebinding-protection
  http-header-validation server-stateless caching
  input-required-result-missing-input-response input-required-result-validate-input input-required-result-unsupported-methods
)
baseline="$PWD/scripts/conformance-baseline.yaml"

npm run -s build
# The servers' stderr, shown when they fail to start or a scenario fails.
logs=$(mktemp -d)
# Ports are chosen free at each start (CONFORMANCE_PORT fixes the first one instead): a
# fixed port was once held by another process during CI, and every check then failed.
free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# Starts one server and waits until it says where it serves (tsx compiles the diagnostic
# build first, which takes a while on a busy machine). Waiting on the port instead could
# reach another process holding it while this one fails to bind and exits; a port taken
# between choosing and binding is retried with another. Sets started_pid and started_port.
start_server() {
  local name=$1 ready=$2 log=$3
  shift 3
  for attempt in 1 2 3 4 5; do
    local port=${CONFORMANCE_PORT:-$(free_port)}
    [[ $name == diagnostic* && -n ${CONFORMANCE_PORT:-} ]] && port=$((CONFORMANCE_PORT + 1))
    # The Origin check is exact: the suite's local origin is listed as an operator would
    # list a local web client's, so dns-rebinding-protection can see a valid origin accepted.
    WOODPECKER_URL=http://127.0.0.1:9 WOODPECKER_TOKEN=unused \
      WOODPECKER_MCP_ALLOWED_ORIGINS="http://localhost:$port,http://127.0.0.1:$port" \
      "$@" "$port" 2>"$log" &
    local pid=$!
    for _ in $(seq 600); do
      if grep -q "$ready" "$log" 2>/dev/null; then
        started_pid=$pid
        started_port=$port
        return 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    grep -q EADDRINUSE "$log" && [[ -z ${CONFORMANCE_PORT:-} ]] && continue
    break
  done
  echo "conformance.sh: the $name did not start serving (exited, or not ready within 60 s); its stderr:" >&2
  tail -20 "$log" >&2
  echo "0 passed, 1 failed"
  exit 1
}

server=""
diagnostic=""
trap 'kill $server $diagnostic 2>/dev/null || true; rm -rf "$logs"' EXIT
start_server "server" "serving MCP over HTTP at" "$logs/server.log" \
  node bin/woodpecker-ci-mcp.js --http --port
server=$started_pid
port=$started_port
# server-stateless runs against a test-only build: the same runtime plus the suite's
# diagnostic tools (test/conformance/diagnosticServer.ts), which its checks of the request
# stream, logging and the missing-capability error call.
start_server "diagnostic server (test/conformance/diagnosticServer.ts)" "diagnostic server at" \
  "$logs/diagnostic.log" node_modules/.bin/tsx test/conformance/diagnosticServer.ts
diagnostic=$started_pid
diagnostic_port=$started_port

passed=0
failed=0
for scenario in "${scenarios[@]}"; do
  # The baseline decides: a failure not listed, or a listed check that now passes, fails the scenario.
  target=$port
  [[ $scenario == server-stateless ]] && target=$diagnostic_port
  if out=$("$tools/node_modules/.bin/node" "$tools/node_modules/.bin/conformance" server --url "http://127.0.0.1:$target/mcp" --scenario "$scenario" --expected-failures "$baseline" 2>&1); then
    echo "ok   $scenario: $(grep -o 'Passed: [0-9]*/[0-9]*' <<<"$out" | tail -1)$(grep -q 'Expected failures' <<<"$out" && echo ' (the rest listed in the baseline)')"
    passed=$((passed + 1))
  else
    echo "FAIL $scenario"
    grep -E "FAILURE|Passed|Unexpected|Stale|  [✗✓~] " <<<"$out" | sed 's/^/     /'
    # Every check failing at once usually means the server, not the checks: show its side.
    log="$logs/server.log"
    [[ $scenario == server-stateless ]] && log="$logs/diagnostic.log"
    echo "     the server's stderr (last 10 lines):"
    tail -10 "$log" | sed 's/^/       /'
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
((failed == 0))

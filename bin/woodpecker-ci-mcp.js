#!/usr/bin/env node
// The one path a client configuration or a package manager names. What it loads may move
// inside the project; this file does not, so a configuration written once keeps working.
// From a clone it needs `npm run build` first (the server runs from dist/).
const entry = new URL('../dist/runtime/process/main.js', import.meta.url);

try {
  await import(entry.href);
} catch (error) {
  // Only the entry itself missing means "not built"; anything it fails on is its own error.
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(entry.pathname)) {
    const root = new URL('..', import.meta.url).pathname;
    process.stderr.write(
      `woodpecker-ci-mcp: not built yet: run \`npm ci && npm run build\` in ${root} first.\n`,
    );
    process.exit(1);
  }
  throw error;
}

// npm run stack: starts the test stack (forge stand-in, Woodpecker server and local agent
// on free loopback ports) for trying the MCP server by hand, prints how to reach it, and
// tears everything down on Ctrl-C.
import { harnessInfoOf, startStack } from '../test/harness/stack.js';

const stack = await startStack(
  process.env.WOODPECKER_TEST_VERSION ? { version: process.env.WOODPECKER_TEST_VERSION } : {},
);
const info = harnessInfoOf(stack);
process.stdout.write(
  [
    `Woodpecker ${info.version} at ${info.url} (forge stand-in at ${info.forgeUrl})`,
    `admin ${info.adminLogin}: WOODPECKER_TOKEN=${info.adminToken}`,
    `user  ${info.userLogin}: WOODPECKER_TOKEN=${info.userToken}`,
    `Try: WOODPECKER_URL=${info.url} WOODPECKER_TOKEN=<a token above> npx tsx runtime/process/main.ts --http`,
    'Ctrl-C stops everything.',
    '',
  ].join('\n'),
);
const stop = () => void stack.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
setInterval(() => undefined, 1 << 30);

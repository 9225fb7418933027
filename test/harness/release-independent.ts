import { readdirSync } from 'node:fs';

// Files whose outcome cannot depend on the Woodpecker release run once, with the pinned
// release: they pack, install or start their own stack, or they test this server's own
// transport, process and views, where Woodpecker only answers a call that every release
// answers alike. Every tool is still shown working on each release by the files that
// stay (tools-*, insight-*, answers, operations, the guard files that put guarded calls to
// Woodpecker, the fault and fuzz suites), and plain-call requests and answers by
// test/unit/call/plainCalls.test.ts. test/unit/releaseIndependent.test.ts checks the list.
export const RELEASE_INDEPENDENT: readonly string[] = [
  // Written for one old release, which they start themselves.
  'test/e2e/*v3.11*.test.ts',
  // Packaging and the newcomer's commands: npm pack, a fresh install, the demo's own stack.
  'test/e2e/install-from-tarball.test.ts',
  'test/e2e/demo.test.ts',
  'test/e2e/demo-first-run.test.ts',
  'test/e2e/inspector-cli.test.ts',
  // The Go SDK client: how a client library meets this server's transports and schemas;
  // the two Woodpecker calls it makes (the user, deleting a secret) every release answers alike.
  'test/e2e/go-sdk-client.test.ts',
  // Many clients at once: the server's sessions, sockets and memory, not Woodpecker's answers.
  'test/e2e/load.test.ts',
  // ELICITATION is read at startup; the call it makes stops at the gate or deletes an agent.
  'test/e2e/guard-elicitation-env.test.ts',
  // Startup warnings and how the process stops (stdin closed, SIGTERM).
  'test/e2e/process-lifecycle.test.ts',
  // Flags, refusals and doctor's findings (reachable, a Woodpecker, the token good), alike on every release.
  'test/e2e/cli.test.ts',
  // Host, Origin, Authorization and session checks, all made before a call reaches Woodpecker.
  'test/e2e/http-transport-attacks.test.ts',
  // Where a cancelled call's dialog is withdrawn: the transport's streams; the call stops at the gate.
  'test/e2e/http-dialog-cancel.test.ts',
  // A rejected Bearer refused before anything is served; Woodpecker only answers /api/user.
  'test/e2e/http-bearer-refused.test.ts',
  // Revision negotiation over stdio.
  'test/e2e/stdio.test.ts',
  // Answers and error codes on the stdio wire; no Woodpecker is configured.
  'test/e2e/stdio-wire.test.ts',
  // A stand-in answers /version; no Woodpecker of any release is asked.
  'test/e2e/server-version.test.ts',
  // tools/list of a server without a Woodpecker, and argument refusals made before any call.
  'test/e2e/tool-list-budget.test.ts',
  // Calls refused before the gate: nothing is sent.
  'test/e2e/guard-unbuildable.test.ts',
  // Our own HTML in Chromium; the tools whose answers it shows run on every release elsewhere.
  'test/e2e/apps-pipeline-view.test.ts',
  'test/e2e/apps-approval-review.test.ts',
];

/** Whether `file` (a path from the repository root) matches `pattern`, whose `*` stays within a name. */
export function matchesTestPattern(pattern: string, file: string): boolean {
  const source = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*');
  return new RegExp(`^${source}$`).test(file);
}

/** The integration project's test files, as paths from the repository root. */
export function integrationTestFiles(root: URL): string[] {
  return ['test/e2e', 'test/integration'].flatMap((folder) =>
    readdirSync(new URL(folder, root))
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `${folder}/${name}`)
      .sort(),
  );
}

/** The files of RELEASE_INDEPENDENT, its patterns expanded. */
export function releaseIndependentFiles(root: URL): string[] {
  return integrationTestFiles(root).filter((file) =>
    RELEASE_INDEPENDENT.some((pattern) => matchesTestPattern(pattern, file)),
  );
}

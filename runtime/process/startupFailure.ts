// A server that cannot start still owes its stdio client an answer: exiting at once shows
// in most clients only as "Connection closed", with the reason left in a log file. So the
// client's requests (initialize on 2025, server/discover or any request on 2026, and a
// fallback after either) are answered with a JSON-RPC error that carries the configuration
// message, until the client hangs up or a few seconds pass; then the process exits. A person
// at a terminal (stdin is a TTY) gets the exit at once.
import { createInterface } from 'node:readline';

/** How long a failed server keeps answering before it exits anyway. */
const ANSWER_FOR_MS = 10_000;

export async function answerStartupFailure(message: string): Promise<void> {
  if (process.stdin.isTTY) return;
  await new Promise<void>((resolve) => {
    const lines = createInterface({ input: process.stdin });
    const done = () => {
      clearTimeout(timer);
      lines.close();
      resolve();
    };
    const timer = setTimeout(done, ANSWER_FOR_MS);
    lines.on('line', (line) => {
      let id: unknown;
      try {
        id = (JSON.parse(line) as { id?: unknown }).id;
      } catch {
        return;
      }
      // Notifications have no id and get no answer; wait for a request.
      if (typeof id !== 'string' && typeof id !== 'number') return;
      const error = { code: -32603, message: `woodpecker-ci-mcp cannot start: ${message}` };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`);
    });
    lines.once('close', done);
  });
}

// Canaries for the whole e2e suite: every credential a test hands to woodpecker-ci-mcp
// (the Woodpecker and bearer tokens, and any value of a `secret: true` parameter: secret
// values, registry passwords, forge client secrets) and every agent token Woodpecker
// reveals once is remembered, and every result, error, dialog, confirm token text, audit
// log line and stderr write of the session is checked for it. One occurrence fails the
// test that caused it.
import type { ToolDefinition } from '../../runtime/core/tool.js';

/** Shorter values could occur by chance (a secret "x"); tests use longer ones. */
const MIN_CANARY_LENGTH = 8;

const canaries = new Set<string>();
const leaks: string[] = [];
export const canaryCounts = { checked: 0, leaks: 0 };

export function addCanary(value: unknown): void {
  if (typeof value === 'string' && value.length >= MIN_CANARY_LENGTH) canaries.add(value);
}

/** Remembers the values of a call's credential parameters (writeOnly in the schema). */
export function addCanariesFromArguments(
  tool: ToolDefinition | undefined,
  args: Record<string, unknown>,
): void {
  if (!tool) return;
  for (const [name, schema] of Object.entries(tool.inputSchema.properties)) {
    if ((schema as { writeOnly?: boolean }).writeOnly) addCanary(args[name]);
  }
}

/** Records (and returns) where a canary was found in `text`; `where` says which channel. */
export function checkForCanaries(
  where: string,
  text: string,
  allowed: ReadonlySet<string> = new Set(),
): string[] {
  canaryCounts.checked++;
  const found: string[] = [];
  for (const canary of canaries) {
    if (!allowed.has(canary) && text.includes(canary))
      found.push(`${where} carries a credential (${canary.slice(0, 3)}…, ${canary.length} chars)`);
  }
  leaks.push(...found);
  canaryCounts.leaks += found.length;
  return found;
}

/** Leaks seen since the last call; throws so the test that caused them fails. */
export function assertNoLeaks(): void {
  if (leaks.length === 0) return;
  const found = leaks.splice(0);
  throw new Error(`credential canaries leaked:\n${found.join('\n')}`);
}

// Everything this process writes to stderr (the in-process server's warnings included).
let stderrWatched = false;
export function watchStderr(): void {
  if (stderrWatched) return;
  stderrWatched = true;
  const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    checkForCanaries(
      'stderr',
      typeof chunk === 'string'
        ? chunk
        : Buffer.isBuffer(chunk)
          ? chunk.toString('utf8')
          : String(chunk),
    );
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
}

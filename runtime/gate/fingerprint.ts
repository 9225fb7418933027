// The approval fingerprint: what an approval is bound to. Targets in the order the tool
// names them (so repo 5 / pipeline 12 differs from repo 12 / pipeline 5), plus, where
// the call decides more than which object it touches, every other argument (so an
// approval for one body does not cover a wider one), plus, where the tool names its
// object by a name (a secret, a registry address, a login), the id Woodpecker reported
// for that object when the question was asked (so an object deleted and created again
// under the same name is a new question, and a second redemption finds nothing to act on).
import { createHash } from 'node:crypto';
import { canonicalToken } from '../core/credential.js';
import { GATE_ARGUMENT, type GuardSpec, type ToolArgs } from '../core/tool.js';

/** Arguments that steer the gate rather than the call; never part of the binding. */
const GATE_ARGUMENTS = new Set([GATE_ARGUMENT]);

export function approvalFingerprint(
  toolName: string,
  guard: Pick<GuardSpec, 'targets' | 'bindBody'>,
  args: ToolArgs,
  identity: number | null = null,
): string {
  const targets = guard.targets.map((name) => [name, args[name] ?? null]);
  let body: unknown = null;
  if (guard.bindBody) {
    const targetNames = new Set(guard.targets);
    body = Object.keys(args)
      .filter(
        (name) => !targetNames.has(name) && !GATE_ARGUMENTS.has(name) && args[name] !== undefined,
      )
      .sort()
      .map((name) => [name, canonical(args[name])]);
  }
  return createHash('sha256')
    .update(JSON.stringify([toolName, targets, body, identity]))
    .digest('base64url');
}

/**
 * Who a call runs as: a digest of the Woodpecker token (in its canonical spelling, so one
 * token rewritten is one caller), never the token itself.
 */
export function principalDigest(token: string | undefined): string {
  return createHash('sha256')
    .update(`woodpecker-ci-mcp principal\0${token === undefined ? '' : canonicalToken(token)}`)
    .digest('base64url')
    .slice(0, 22);
}

// Object keys sorted at every depth, so {a,b} and {b,a} bind the same body.
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

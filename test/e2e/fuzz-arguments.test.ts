// Property-based calls over every tool's input schema, through a real MCP client and the
// real HTTP transport, to a real Woodpecker (its own stack: valid calls do run) behind a
// recording proxy. For every call: it answers (no crash, no hang), a refusal names the
// field, and nothing Woodpecker would refuse as malformed or route nowhere is sent.
// Replay a failure with FUZZ_SEED=<seed printed below>; FUZZ_RUNS changes the count.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';
import type { ToolDefinition } from '../../runtime/core/tool.js';
import { startStack, type Stack } from '../harness/stack.js';
import { normalizeTag, pinnedWoodpeckerTag } from '../harness/woodpecker-binaries.js';
import { startFaultProxy, type AnsweredRequest, type FaultProxy } from './faultProxy.js';
import { argumentsFor } from './fuzz/argumentArbitraries.js';
import { openSession, textOf, type McpSession } from './mcpSession.js';

// The full count on the pinned release; CI's runs against other releases take a fifth.
const OTHER_RELEASE =
  process.env.WOODPECKER_TEST_VERSION &&
  normalizeTag(process.env.WOODPECKER_TEST_VERSION) !== pinnedWoodpeckerTag()
    ? process.env.WOODPECKER_TEST_VERSION
    : undefined;
const RUNS = Number(process.env.FUZZ_RUNS ?? (OTHER_RELEASE ? 2_000 : 10_000));
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CALL_DEADLINE_MS = 15_000;

/**
 * Calls an earlier run found sending something malformed to Woodpecker, replayed first on
 * every run. Seed 899302334: a registry address with a CRLF and a header after it.
 */
const FOUND_BEFORE = [
  {
    name: 'create_registry',
    args: {
      scope: 'repository',
      repo_id: 1,
      address: '\r\nX-Injected: 1',
      username: 'u',
      password: 'p\u202e',
    },
  },
  // Seeds 1008910311 and 1009411345: addresses Go's url.Parse refuses (Woodpecker: 400).
  {
    name: 'create_registry',
    args: { scope: 'global', address: '%c', username: 'sample', password: 'sample' },
  },
  {
    name: 'create_registry',
    args: { scope: 'global', address: './%#', username: '#frag', password: 'p' },
  },
];

/**
 * Woodpecker answers 400 "Agent does not belong to this organization" when an org agent
 * route names two valid ids that do not go together: a well-formed request about objects
 * that do not match, like a 404, not a malformed one.
 */
function idsThatDoNotBelong(answer: AnsweredRequest): boolean {
  return /^\/api\/orgs\/\d+\/agents\/\d+$/.test(answer.path);
}

/** A request Woodpecker refused as malformed, or that matched none of its API routes. */
function malformed(answer: AnsweredRequest): boolean {
  return (
    (answer.status === 400 && !idsThatDoNotBelong(answer)) ||
    (answer.status >= 300 && answer.status < 400) ||
    answer.contentType.includes('text/html')
  );
}

/** The names a refusal may point at: the tool's parameters, fields it does not take, or the whole. */
function namesAField(tool: ToolDefinition, args: Record<string, unknown>, text: string): boolean {
  const names = [
    ...Object.keys(tool.inputSchema.properties),
    ...Object.keys(args),
    'the arguments',
  ];
  return names.some((name) => name.length > 0 && text.includes(name));
}

describe('property-based calls over every tool', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  let session: McpSession;

  beforeAll(async () => {
    stack = await startStack(OTHER_RELEASE ? { version: OTHER_RELEASE } : {});
    proxy = await startFaultProxy(stack.url);
    // No dialogs: a guarded call that passes validation returns a confirm token and acts on nothing.
    // 2025 sessions: validation and execution are the same on both revisions, and a
    // 2026-07-28 request builds a server per call, which doubles the suite's time.
    session = await openSession({
      revision: '2025-11-25',
      canElicit: false,
      canaries: false,
      woodpecker: { url: proxy.url, token: stack.adminToken },
    });
  });
  afterAll(async () => {
    await session?.close();
    await proxy?.close();
    await stack?.stop();
  });

  it(`${RUNS} calls: each answers in time, refusals name the field, nothing malformed reaches Woodpecker`, async () => {
    console.log(
      `[fuzz] seed ${SEED}, ${RUNS} runs (replay: FUZZ_SEED=${SEED} npx vitest run test/e2e/fuzz-arguments.test.ts)`,
    );
    const counts = {
      calls: 0,
      refused: 0,
      sent: 0,
      succeeded: 0,
      woodpeckerErrors: 0,
      requests: 0,
    };
    const malformedSeen: string[] = [];
    const started = performance.now();
    const call = fc
      .constantFrom(...tools)
      .chain((tool) => argumentsFor(tool).map((args) => ({ tool, args })));

    await fc.assert(
      fc.asyncProperty(call, async ({ tool, args }) => {
        const forwardedBefore = proxy.answered.length;
        let text: string;
        let isError: boolean;
        let deadline: NodeJS.Timeout | undefined;
        try {
          const result = await Promise.race([
            session.call(tool.name, args),
            new Promise<never>(
              (_, reject) =>
                (deadline = setTimeout(
                  () =>
                    reject(new Error(`${tool.name} did not answer within ${CALL_DEADLINE_MS} ms`)),
                  CALL_DEADLINE_MS,
                )),
            ),
          ]);
          text = textOf(result);
          isError = result.isError === true;
        } catch (error) {
          // A protocol-level refusal (invalid params) is an answer too; a hang or a dead server is not.
          const message = error instanceof Error ? error.message : String(error);
          if (/did not answer within|fetch failed|ECONNREFUSED|socket/i.test(message)) throw error;
          text = message;
          isError = true;
        } finally {
          clearTimeout(deadline);
        }
        counts.calls++;
        const answered = proxy.answered.slice(forwardedBefore);
        counts.requests += answered.length;
        for (const answer of answered.filter(malformed))
          malformedSeen.push(
            `${tool.name} ${answer.method} ${answer.path.slice(0, 120)} → ${answer.status} ${answer.contentType}: ${JSON.stringify(args).slice(0, 200)} → ${text.slice(0, 200)}`,
          );
        expect(text, `${tool.name}: an answer with no text`).not.toBe('');
        expect(text).not.toMatch(/failed unexpectedly|\[object Object\]/);
        expect(text).not.toContain(stack.adminToken);
        if (isError && answered.length === 0) {
          counts.refused++;
          expect(
            namesAField(tool, args, text),
            `${tool.name} refused without naming a field: ${text.slice(0, 300)}`,
          ).toBe(true);
        } else {
          counts.sent++;
          if (isError) counts.woodpeckerErrors++;
          else counts.succeeded++;
        }
      }),
      {
        numRuns: RUNS,
        seed: SEED,
        endOnFailure: true,
        // Cases a run once found, replayed on every run before the random ones.
        examples: FOUND_BEFORE.map(
          ({ name, args }) =>
            [{ tool: tools.find((tool) => tool.name === name)!, args }] as [
              { tool: (typeof tools)[number]; args: Record<string, unknown> },
            ],
        ),
      },
    );

    const seconds = (performance.now() - started) / 1000;
    console.log(
      `[fuzz] ${counts.calls} calls in ${seconds.toFixed(1)} s: ${counts.refused} refused before Woodpecker, ${counts.sent} reached it (${counts.succeeded} ok, ${counts.woodpeckerErrors} Woodpecker errors), ${counts.requests} requests, ${malformedSeen.length} malformed`,
    );
    for (const line of [...new Set(malformedSeen)].slice(0, 40))
      console.log(`[fuzz] malformed: ${line}`);
    expect(
      malformedSeen,
      `seed ${SEED}: replay with FUZZ_SEED=${SEED} npx vitest run test/e2e/fuzz-arguments.test.ts`,
    ).toEqual([]);
    // The server is still there and answers normally.
    expect((await session.ok<{ login: string }>('get_current_user')).login).toBe(stack.adminLogin);
  }, 600_000);
});

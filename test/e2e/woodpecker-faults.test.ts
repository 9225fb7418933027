// Every tool against a Woodpecker that fails in the ways servers, proxies and networks
// fail, injected per request by a proxy in front of the real server (the run's release,
// and 3.11.0 beside the pinned one): each call ends in a clear tool error within the configured timeout, the
// process's memory stays bounded, the next call works, no write is sent twice, and a
// write whose connection broke after it was sent says its outcome is unknown and how to
// check. Figures (calls, time, RSS) are printed for docs/security.md.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';
import type { ToolDefinition } from '../../runtime/core/tool.js';
import { harnessInfo } from '../harness/fixtures.js';
import { startStack, type Stack } from '../harness/stack.js';
import { runsOnPinnedRelease } from '../harness/woodpecker-binaries.js';
import {
  ALL_FAULTS,
  startFaultProxy,
  type FaultAnswer,
  type FaultProxy,
  type SeenRequest,
} from './faultProxy.js';
import { openSession, textOf, type McpSession } from './mcpSession.js';
import { minimalArgs } from './toolArguments.js';

// Short, so the slow faults keep the suite short; 2 s leaves room for a loaded CI machine.
const TIMEOUT_SECONDS = 2;
/** A body ceiling below the 50 MB answer, so every tool meets it without decoding 50 MB each. */
const CEILING_BYTES = 8 * 2 ** 20;
/** Faults that last until the client gives up: run many calls at once to keep the suite short. */
const SLOW_FAULTS: readonly FaultAnswer[] = ['endless-body', 'slow-drip'];
const isWrite = (request: SeenRequest): boolean => request.method !== 'GET';
const everything = (): boolean => true;
const writeTools = tools.filter((tool) => !tool.annotations.readOnlyHint);
/**
 * Tools whose answer does not need Woodpecker: lint_pipeline_config only asks which release
 * judges the config, and when Woodpecker does not say, judges by the newest tested one and
 * says so. Under a fault they answer as usual instead of failing.
 */
const ANSWERS_WITHOUT_WOODPECKER: ReadonlySet<string> = new Set(['lint_pipeline_config']);

/** A tool error a model can act on: names the tool, speaks of Woodpecker, no internals. */
function expectClearError(tool: ToolDefinition, text: string, isError: boolean | undefined): void {
  expect(isError, `${tool.name}: ${text}`).toBe(true);
  expect(text.startsWith(tool.name), text).toBe(true);
  expect(text).toMatch(/Woodpecker/);
  expect(text).not.toMatch(/unexpectedly|\[object Object\]|undefined|\bat \S+\.[jt]s:\d+/);
}

/**
 * 50 MB of JSON is under the body ceiling, so it is read; then the result limit cuts a list
 * to whole entries and refuses anything else, naming the setting.
 */
function expectHugeAnswerHandled(
  tool: ToolDefinition,
  text: string,
  isError: boolean | undefined,
): void {
  // A tool that answers "done" ignores the body; a list keeps whole entries under the limit.
  if (!isError) expect(text.length, tool.name).toBeLessThan(110_000);
  else
    expect(text, tool.name).toMatch(
      new RegExp(`^${tool.name}(:| failed:) .*(WOODPECKER_MCP_MAX_RESULT_BYTES|Woodpecker)`),
    );
}

async function pool<T>(
  items: readonly T[],
  width: number,
  body: (item: T) => Promise<void>,
): Promise<void> {
  // The first failure stops every worker before its next item, and the pool returns only
  // when no call is under way: a call still running would send its requests into the
  // next test's count.
  const queue = [...items];
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined && !failure; item = queue.shift()) {
        try {
          await body(item);
        } catch (error) {
          failure ??= { error };
        }
      }
    }),
  );
  if (failure) throw failure.error;
}

// The run's own release, and on the pinned release's run 3.11.0 beside it (so that
// `npm run test:pinned` sees the oldest release too). A run on another release (`npm test`
// runs one on 3.11.0 and one on the next release) tests that release alone: 3.11.0 a
// third time would add nothing.
const OLD_RELEASE = 'v3.11.0';
const runsOnPinned = runsOnPinnedRelease();
const RELEASES: readonly { label: string; version: string | undefined }[] = [
  { label: "the run's release", version: undefined },
  ...(runsOnPinned ? [{ label: 'Woodpecker 3.11.0', version: OLD_RELEASE }] : []),
];

describe.each(RELEASES)('faults in front of $label', ({ version }) => {
  let stack: Stack | undefined;
  let proxy: FaultProxy;
  let session: McpSession;
  let peakRss = 0;
  const auditLog = join(mkdtempSync(join(tmpdir(), 'wcm-faults-')), 'audit.log');
  let started = Date.now();
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  let calls = 0;

  beforeAll(async () => {
    started = Date.now();
    stack = version ? await startStack({ version }) : undefined;
    const woodpecker = stack
      ? { url: stack.url, token: stack.adminToken }
      : { url: harnessInfo().url, token: harnessInfo().adminToken };
    proxy = await startFaultProxy(woodpecker.url);
    session = await openSession({
      revision: '2026-07-28',
      woodpecker: { url: proxy.url, token: woodpecker.token },
      env: {
        WOODPECKER_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
        WOODPECKER_MCP_MAX_RESPONSE_BYTES: String(CEILING_BYTES),
        WOODPECKER_MCP_AUDIT_LOG: auditLog,
      },
    });
  });
  afterAll(async () => {
    clearInterval(rssTimer);
    console.log(
      `[faults ${version ?? harnessInfo().version}] ${calls} calls, ${ALL_FAULTS.length} faults, ${((Date.now() - started) / 1000).toFixed(1)} s, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
    );
    await session?.close();
    await proxy?.close();
    await stack?.stop();
  });

  async function timedCall(
    tool: ToolDefinition,
  ): Promise<{ text: string; isError: boolean | undefined; seconds: number }> {
    const begin = performance.now();
    const result = await session.call(tool.name, minimalArgs(tool));
    calls++;
    return {
      text: textOf(result),
      isError: result.isError as boolean | undefined,
      seconds: (performance.now() - begin) / 1000,
    };
  }

  async function nextCallWorks(): Promise<void> {
    proxy.fault = undefined;
    const user = await session.ok<{ login: string }>('get_current_user');
    expect(user.login).toBeTruthy();
  }

  it.each(ALL_FAULTS)(
    'every tool fails clearly when every request meets %s',
    async (answer) => {
      proxy.fault = { matches: everything, answer };
      const rssBefore = process.memoryUsage().rss;
      const slow = SLOW_FAULTS.includes(answer);
      const writesBefore = proxy.faulted.filter(isWrite).length;
      await pool(tools, slow ? 16 : 1, async (tool) => {
        const before = proxy.faulted.length;
        const { text, isError, seconds } = await timedCall(tool);
        const met = proxy.faulted.slice(before);
        if (ANSWERS_WITHOUT_WOODPECKER.has(tool.name)) {
          expect(isError, `${tool.name}: ${text}`).toBeFalsy();
          expect(text).toMatch(/did not answer/);
          return;
        }
        expectClearError(tool, text, isError);
        // Refused at the ceiling; on a loaded machine sending 8 MB may outlast the timeout instead.
        if (answer === 'huge-json')
          expect(text).toMatch(
            /larger than 8388608 bytes.*WOODPECKER_MCP_MAX_RESPONSE_BYTES|within 2 s/,
          );
        // A guard's reads may each meet the fault (an unreadable level asks), a write never twice.
        if (!slow)
          expect(
            met.filter(isWrite).length,
            `${tool.name}: ${JSON.stringify(met)}`,
          ).toBeLessThanOrEqual(1);
        // Each request may take the whole timeout; at most a guard's few reads come before the write.
        const work = slow ? 8 : 4;
        expect(seconds, `${tool.name} took ${seconds.toFixed(1)} s`).toBeLessThan(
          TIMEOUT_SECONDS * Math.max(met.length, 1) + work,
        );
      });
      // No write was retried: each write tool sends its write at most once.
      expect(proxy.faulted.filter(isWrite).length - writesBefore).toBeLessThanOrEqual(
        writeTools.length,
      );
      // The process does not keep what it read: at most a few answers' worth is held at once.
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(600 * 2 ** 20);
      await nextCallWorks();
    },
    120_000,
  );

  it('a 50 MB answer under the default ceiling is read once, then cut or refused, and the memory is given back', async () => {
    const roomy = await openSession({
      revision: '2026-07-28',
      woodpecker: { url: proxy.url, token: stack?.adminToken ?? harnessInfo().adminToken },
    });
    try {
      proxy.fault = { matches: everything, answer: 'huge-json' };
      const rssBefore = process.memoryUsage().rss;
      for (const name of ['list_repositories', 'get_repository', 'cancel_pipeline']) {
        const tool = tools.find((candidate) => candidate.name === name)!;
        const result = await roomy.call(name, minimalArgs(tool));
        calls++;
        expectHugeAnswerHandled(tool, textOf(result), result.isError as boolean | undefined);
      }
      const grown = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
      console.log(
        `[faults ${version ?? harnessInfo().version}] 50 MB answers: RSS grew ${grown.toFixed(0)} MiB over 3 calls`,
      );
      // One 50 MB answer costs about 600 MiB while it is decoded; three in a row must not add
      // up (3 × 600), so the bound is one and a half answers' worth.
      expect(grown).toBeLessThan(900);
      // Several at once: memory is bounded by the ceiling times the calls under way, not by
      // a budget for the whole process. The figure is printed for the docs, not asserted.
      peakRss = 0;
      const together = await Promise.all(
        Array.from({ length: 2 }, () => roomy.call('list_repositories', {})),
      );
      calls += together.length;
      for (const result of together)
        expectHugeAnswerHandled(
          tools.find((tool) => tool.name === 'list_repositories')!,
          textOf(result),
          result.isError as boolean | undefined,
        );
      console.log(
        `[faults ${version ?? harnessInfo().version}] 2 concurrent 50 MB answers: peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
      );
      proxy.fault = undefined;
      expect((await roomy.call('get_current_user')).isError).toBeFalsy();
    } finally {
      await roomy.close();
    }
  }, 120_000);

  it('a write whose connection broke after it was sent says the outcome is unknown and how to check, and is not sent again', async () => {
    // Reads reach the real Woodpecker, so writes behind a gate or a lookup get this far too.
    proxy.fault = { matches: isWrite, answer: 'reset-after-read' };
    session.answer = 'approve';
    let reached = 0;
    const auditLines = () =>
      (existsSync(auditLog) ? readFileSync(auditLog, 'utf8') : '')
        .split('\n')
        .filter(Boolean)
        .map(
          (line) => JSON.parse(line) as { tool: string; outcome: string; approval: string | null },
        );
    for (const tool of writeTools) {
      const before = proxy.faulted.length;
      const logged = auditLines().length;
      const { text, isError } = await timedCall(tool);
      const writes = proxy.faulted.length - before;
      // The audit log says the same: not "failed", which would read as "nothing happened".
      const entry = auditLines().slice(logged).at(-1);
      if (writes === 1)
        expect(entry, tool.name).toMatchObject({ tool: tool.name, outcome: 'outcome unknown' });
      if (writes === 1 && tool.guard) expect(entry?.approval, tool.name).not.toBeNull();
      expect(
        writes,
        `${tool.name}: ${JSON.stringify(proxy.faulted.slice(before))}`,
      ).toBeLessThanOrEqual(1);
      if (writes === 0) continue;
      reached++;
      expectClearError(tool, text, isError);
      expect(text).toMatch(/may have (been carried out|happened)|outcome is unknown/);
      expect(text).toMatch(/check|read .* back/i);
      expect(text).toMatch(
        /not (been )?sent again|not repeated|before calling .* again|before trying again/i,
      );
    }
    console.log(
      `[faults ${version ?? harnessInfo().version}] reset after sending: ${reached} of ${writeTools.length} write tools reached their write`,
    );
    expect(reached).toBeGreaterThan(writeTools.length / 3);
    await nextCallWorks();
  });
});

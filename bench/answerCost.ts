// What a model pays to read our answers, against Woodpecker's own compact JSON of the
// same data. The inputs are real answers captured from the harness Woodpecker
// (test/answers/captured.json, written by test/e2e/answer-views.test.ts); each is passed
// through the same output step the server uses, so the figures are the server's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { tools } from '../generated/index.js';
import type { ToolArgs } from '../runtime/core/tool.js';
import { answerOf } from '../runtime/output/answer.js';
import { finishAnswer } from '../runtime/output/outputStep.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../runtime/output/resultLimit.js';

export const CAPTURED_ANSWERS = fileURLToPath(
  new URL('../test/answers/captured.json', import.meta.url),
);

/** One call as captured: Woodpecker's answer (credentials redacted), or a handler's result. */
export interface CapturedAnswer {
  /** Unique: the tool, or the tool and which answer ("get_pipeline:failed"). */
  readonly key: string;
  readonly tool: string;
  /** What the answer holds, for the table ("4 pipelines"). */
  readonly label: string;
  readonly args: ToolArgs;
  /** Woodpecker's JSON body for a plain call. */
  readonly woodpecker?: unknown;
  /** A handler tool's structuredContent (its shape is its own, not Woodpecker's). */
  readonly result?: Record<string, unknown>;
  /**
   * For a handler answer that one Woodpecker call also serves (a step's log): that call's
   * JSON, so the answer is measured against it as the plain ones are.
   */
  readonly woodpeckerSameData?: unknown;
}

export interface Captured {
  readonly woodpeckerVersion: string;
  readonly answers: readonly CapturedAnswer[];
  /** Read tools whose answer the harness cannot produce: tool name → why (docs/tools.md). */
  readonly unanswered?: Readonly<Record<string, string>>;
}

export function loadCaptured(file = CAPTURED_ANSWERS): Captured {
  return JSON.parse(readFileSync(file, 'utf8')) as Captured;
}

export const tokensOf = (text: string): number => encode(text).length;

const byName = new Map(tools.map((tool) => [tool.name, tool] as const));

/** The result the server returns for a captured Woodpecker answer. */
export async function resultFor(
  name: string,
  args: ToolArgs,
  body: unknown,
): Promise<CallToolResult> {
  const tool = byName.get(name);
  if (!tool) throw new Error(`no tool named ${name}`);
  return finishAnswer(
    tool,
    answerOf(tool, args, { status: 200, headers: {}, body }),
    { maxResultBytes: DEFAULT_MAX_RESULT_BYTES, repositoryScope: undefined },
    () => Promise.reject(new Error('an offline answer makes no call')),
  );
}

export const textOf = (result: CallToolResult): string =>
  (result.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('\n');

export interface AnswerCost {
  readonly tool: string;
  readonly label: string;
  /** Before views: the whole object, pretty-printed (what the server sent until 0.x). */
  readonly before: number;
  readonly now: number;
  readonly woodpecker: number;
  readonly ratio: number;
}

export async function costOf(answer: CapturedAnswer): Promise<AnswerCost> {
  let before: number;
  let now: number;
  let woodpecker: number;
  if (answer.result !== undefined) {
    // A handler's answer was sent indented, now compact; most have no Woodpecker twin.
    before = tokensOf(JSON.stringify(answer.result, null, 1));
    now = tokensOf(JSON.stringify(answer.result));
    woodpecker =
      answer.woodpeckerSameData === undefined
        ? now
        : tokensOf(JSON.stringify(answer.woodpeckerSameData));
  } else {
    const full = await resultFor(
      answer.tool,
      { ...answer.args, detail: 'full' },
      answer.woodpecker,
    );
    before = tokensOf(JSON.stringify(full.structuredContent, null, 1));
    now = tokensOf(textOf(await resultFor(answer.tool, answer.args, answer.woodpecker)));
    woodpecker = tokensOf(JSON.stringify(answer.woodpecker));
  }
  return {
    tool: answer.tool,
    label: answer.label,
    before,
    now,
    woodpecker,
    ratio: Math.round((now / woodpecker) * 100) / 100,
  };
}

/** A whole task: every tool result a model reads to answer one question. */
export const TASKS = {
  'why did pipeline N fail': ['get_pipeline:failed', 'get_step_logs:failed'],
  'why did pipeline N fail, in one call': ['get_pipeline_failure'],
  'what is running on repository R': ['list_pipelines', 'get_pipeline:latest'],
  "read lines 2-3 of a step's log": ['get_step_logs:from-line'],
  'follow a running step: the lines since the last read': ['get_step_logs:follow'],
  'did the failure already pass on a later attempt': ['get_pipeline_failure:passed-later'],
  'would a restart run, and why (dry run)': ['restart_pipeline:dry-run'],
  'restart only what the machine broke: the code failed': ['restart_pipeline:not-infrastructure'],
  'restart only what the machine broke: exit 137, a dry run': [
    'restart_pipeline:infrastructure-dry-run',
  ],
  'restart only what the machine broke: exit 137': ['restart_pipeline:infrastructure'],
  'check a workflow file before pushing it': ['lint_pipeline_config'],
} as const;

/**
 * The 15 most used read tools, which the goals of docs/performance.md are set for. Nothing
 * here counts calls, so the choice is a rule: the everyday tools that have a Woodpecker
 * answer to compare with (those of WOODPECKER_ALLOW_TOOLS=essential: repositories,
 * pipelines, a step's log) and lookup_repository, which finds the id they all take; what
 * runs now (the feed, the queue, the agents and their tasks); the two repository settings a
 * failing pipeline most often depends on (secrets and crons, read as a list and one by
 * one); and get_current_user, which every setup check calls.
 */
export const MOST_USED = [
  'list_repositories',
  'get_repository',
  'lookup_repository',
  'list_pipelines',
  'get_pipeline',
  'get_step_logs',
  'get_pipeline_feed',
  'list_queued_pipelines',
  'list_agents',
  'list_agent_tasks',
  'list_secrets',
  'get_secret',
  'list_crons',
  'get_cron',
  'get_current_user',
] as const;

/**
 * Answers above the per-answer goal (ANSWER_GOALS.each), and why; docs/performance.md
 * shows these reasons, and test/unit/output/answerCost.test.ts holds each to at most
 * OVER_GOAL_CEILING and fails when one no longer misses the goal.
 */
export const OVER_EACH_GOAL: Readonly<Record<string, string>> = {
  list_crons:
    "the untrusted marker (12 tokens), which a cron's answer must carry because its name and branch are written by people with push access; without it, about 0.72×",
  get_cron: 'as list_crons',
  lookup_organization: 'four short fields, all of which a reader needs',
  list_queued_pipelines:
    'the untrusted marker and the list envelope on a list of one: the entry itself is 0.8× of Woodpecker’s (it keeps the full commit SHA, the message and a readable start time)',
  get_pipeline_feed:
    'each entry keeps the full commit SHA (26 tokens), the message and a readable start time (14 tokens against 7 for Unix seconds), which are most of Woodpecker’s entry too',
  list_forges: "Woodpecker's forge is already four short fields; the list adds its envelope",
  get_forge: "Woodpecker's forge is already four short fields",
  list_secrets: 'the untrusted marker a name written by people with push access needs',
  get_secret: 'as list_secrets',
  list_registries:
    'the untrusted marker an address and username written by people with push access need',
  get_registry: 'as list_registries',
  get_repository_permissions:
    'three flags and the time of the last sync, readable (14 tokens against 7 for Unix seconds)',
  get_pipeline_metadata:
    'every field is the value of a CI_* variable a step saw, so only the avatar and empty fields go; its four times cost more readable',
};

/** The most an answer named in OVER_EACH_GOAL may cost, against Woodpecker's JSON. */
export const OVER_GOAL_CEILING = 1.1;

const fmt = (n: number): string => n.toLocaleString('en-US');

/** Captured plain answers, one per table row (a task's second answer of a tool is not). */
const plainAnswers = (captured: Captured): CapturedAnswer[] =>
  captured.answers.filter(
    (answer) => answer.woodpecker !== undefined && !answer.label.startsWith('task:'),
  );

/**
 * The answers whose cost the table measures: those of tools with a view. A tool without
 * one answers with Woodpecker's JSON as it is (compact), which there is nothing to compare.
 */
export const measuredAnswers = (captured: Captured): CapturedAnswer[] => [
  ...plainAnswers(captured).filter((answer) => byName.get(answer.tool)?.output.view !== undefined),
  ...captured.answers.filter(
    (answer) => answer.woodpeckerSameData !== undefined && !answer.label.startsWith('task:'),
  ),
];

/** Lists measured against a rows form (docs/performance.md, "Lists as rows"). */
export const ROWS_MEASURED = [
  'list_pipelines',
  'list_repositories',
  'list_crons',
  'get_pipeline_feed',
] as const;

export interface RowsCost {
  readonly tool: string;
  readonly items: number;
  /** o200k tokens of the items as today: a JSON array of objects. */
  readonly json: number;
  /** A header line of field names, then one JSON array a row (absent: null). */
  readonly lines: number;
  /** CSV: a header line, then a line a row (absent: empty; a nested object as JSON). */
  readonly csv: number;
}

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** What a viewed list's items cost as JSON objects, as JSON rows and as CSV. */
export async function rowsCostOf(answer: CapturedAnswer): Promise<RowsCost> {
  const viewed = (await resultFor(answer.tool, answer.args, answer.woodpecker))
    .structuredContent as { items: Record<string, unknown>[] };
  const items = viewed.items;
  const fields = [...new Set(items.flatMap((item) => Object.keys(item)))];
  const cells = (item: Record<string, unknown>) => fields.map((field) => item[field] ?? null);
  return {
    tool: answer.tool,
    items: items.length,
    json: tokensOf(JSON.stringify(items)),
    lines: tokensOf(
      [JSON.stringify(fields), ...items.map((item) => JSON.stringify(cells(item)))].join('\n'),
    ),
    csv: tokensOf(
      [fields.join(','), ...items.map((item) => cells(item).map(csvCell).join(','))].join('\n'),
    ),
  };
}

/** The table of docs/performance.md, "Lists as rows". */
export async function rowsTable(captured = loadCaptured()): Promise<string> {
  const byKey = new Map(captured.answers.map((answer) => [answer.key, answer] as const));
  const rows = await Promise.all(
    ROWS_MEASURED.map((key) => {
      const answer = byKey.get(key);
      if (!answer) throw new Error(`${CAPTURED_ANSWERS} has no answer ${key}; capture again`);
      return rowsCostOf(answer);
    }),
  );
  const pct = (part: number, whole: number) => `${Math.round((part / whole - 1) * 100)} %`;
  return [
    `Measured on Woodpecker ${captured.woodpeckerVersion}'s real answers (harness), o200k tokens of the items of each list after its view:`,
    '',
    '| tool | items | JSON objects (today) | header + JSON array a row | CSV |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.tool} | ${r.items} | ${fmt(r.json)} | ${fmt(r.lines)} (${pct(r.lines, r.json)}) | ${fmt(r.csv)} (${pct(r.csv, r.json)}) |`,
    ),
  ].join('\n');
}

/** The tables of docs/performance.md, "What an answer costs". */
export async function answerCostTables(captured = loadCaptured()): Promise<string> {
  const rows = await Promise.all(measuredAnswers(captured).map(costOf));
  const viewless = plainAnswers(captured)
    .filter((answer) => byName.get(answer.tool)?.output.view === undefined)
    .map((answer) => `\`${answer.tool}\``);
  const sum = (key: 'before' | 'now' | 'woodpecker', of = rows) =>
    of.reduce((s, r) => s + r[key], 0);
  const mostUsed = rows.filter((r) => (MOST_USED as readonly string[]).includes(r.tool));
  const lines = [
    `Measured on Woodpecker ${captured.woodpeckerVersion}'s real answers (harness), o200k tokens of the text a client hands the model:`,
    '',
    "| tool | answer | most used | before views | now | Woodpecker's compact JSON | now ÷ Woodpecker |",
    '|---|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.tool} | ${r.label} | ${mostUsed.includes(r) ? 'yes' : ''} | ${fmt(r.before)} | ${fmt(r.now)} | ${fmt(r.woodpecker)} | ${r.ratio.toFixed(2)}× |`,
    ),
    `| **sum, the ${mostUsed.length} most used** | | | ${fmt(sum('before', mostUsed))} | ${fmt(sum('now', mostUsed))} | ${fmt(sum('woodpecker', mostUsed))} | ${(sum('now', mostUsed) / sum('woodpecker', mostUsed)).toFixed(2)}× |`,
    `| **sum, all ${rows.length}** | | | ${fmt(sum('before'))} | ${fmt(sum('now'))} | ${fmt(sum('woodpecker'))} | ${(sum('now') / sum('woodpecker')).toFixed(2)}× |`,
    '',
    `Without a view, answering with Woodpecker's fields unchanged (compact; a list in its envelope, marked untrusted where tools.yaml says): ${viewless.join(', ')}.`,
    '',
    'Above the per-answer goal, and why:',
    '',
    ...rows
      .filter((r) => OVER_EACH_GOAL[r.tool] !== undefined)
      .map((r) => `- ${r.tool} (${r.ratio.toFixed(2)}×): ${OVER_EACH_GOAL[r.tool]}.`),
    '',
    '| task | tool results read | before views | now |',
    '|---|---|---:|---:|',
  ];
  const byKey = new Map(captured.answers.map((answer) => [answer.key, answer] as const));
  for (const [task, keys] of Object.entries(TASKS)) {
    const costs = await Promise.all(
      keys.map((key) => {
        const answer = byKey.get(key);
        if (!answer) throw new Error(`${CAPTURED_ANSWERS} has no answer ${key}; capture again`);
        return costOf(answer);
      }),
    );
    lines.push(
      `| ${task} | ${keys.map((k) => k.split(':')[0]).join(' + ')} | ${fmt(costs.reduce((s, c) => s + c.before, 0))} | ${fmt(costs.reduce((s, c) => s + c.now, 0))} |`,
    );
  }
  return lines.join('\n');
}

// compare_pipelines: "what differs between these two runs?" Two pipelines of one
// repository, or one and the last green pipeline of its branch and event before it:
// what ran differently (steps whose state or exit code differ, steps added or removed,
// durations that changed a lot), why it might (config files as a unified diff, event,
// branch, ref and variables), and what was pushed in between (the pipelines Woodpecker
// ran between them, with their commits and changed files). Everything a pusher wrote
// stays marked untrusted by the output step.
// Woodpecker requests: 2 get_pipeline, 2 config reads, and either up to 4 list pages
// (finding the last green, which also lists those between) or 2 (between two given): 8 at most.
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf, type HandlerContext } from '../call/handlerContext.js';
import { RequestArgumentError } from '../woodpecker/requestParts.js';
import { UNTRUSTED_NOTE } from './reads/logs.js';
import { inLine, lineOf, lookBack, type Raw } from './insight/pipelineHistory.js';
import { readPipeline } from './reads/pipelineReads.js';
import { pipelineFacts, type PipelineFacts } from './reads/pipelineFacts.js';
import { stepsOf, type StepSummary } from './reads/pipelineSteps.js';
import { brief, lastSuccessBefore } from './insight/sinceGreen.js';
import { unifiedDiff } from './insight/unifiedDiff.js';
import { compact } from './reads/compactAnswer.js';
import { timeOf, tookOf } from '../output/view.js';

/** Characters of unified diff across all config files. */
const DIFF_BUDGET = 6_000;
const MAX_BETWEEN = 20;
const MAX_CHANGED_FILES = 50;
const BETWEEN_PAGES = 2;
/** A step's duration change is worth a line when it is this many seconds and this ratio. */
const NOTABLE_SECONDS = 10;
const NOTABLE_RATIO = 1.5;
const MAX_VALUE = 200;

export const comparePipelines: HandlerOf<'compare_pipelines'> = async (context) => {
  const repoId = context.args.repo_id;
  const number = Number(context.args.number);
  const first = pipelineFacts(await readPipeline(context, repoId, number));

  let otherNumber = context.args.other === undefined ? undefined : Number(context.args.other);
  let between: PipelineFacts[] | undefined;
  let chosen: string | undefined;
  if (otherNumber === undefined) {
    const looked = await lastSuccessBefore(context, repoId, first);
    if (!looked.found) {
      throw new RequestArgumentError(
        `pipeline ${number} has no successful pipeline of its branch and event before it among the last ${looked.searched} looked at; give other, the number of the pipeline to compare with (list_pipelines)`,
        'other',
      );
    }
    otherNumber = looked.found.number;
    between = looked.earlier;
    chosen = `other is the last successful pipeline of ${first.branch} (${first.event}) before ${number}.`;
  }
  if (otherNumber === number)
    throw new RequestArgumentError(
      'other names the same pipeline as number; give another',
      'other',
    );

  const second = pipelineFacts(await readPipeline(context, repoId, otherNumber));
  const [base, head] = number < otherNumber ? [first, second] : [second, first];
  const baseNumber = base.number;
  const headNumber = head.number;
  between ??= await pipelinesBetween(context, repoId, head, baseNumber);
  const betweenOldestFirst = between
    .filter((pipeline) => pipeline.number > baseNumber)
    .sort((a, b) => a.number - b.number);

  const [baseConfig, headConfig] = await Promise.all([
    readConfig(context, repoId, baseNumber),
    readConfig(context, repoId, headNumber),
  ]);
  const changedFiles = unique(
    [...betweenOldestFirst, head].flatMap((pipeline) => pipeline.changed_files),
  );

  return {
    data: compact({
      repo_id: repoId,
      ...(chosen ? { chosen } : {}),
      base: outline(base.answer),
      head: outline(head.answer),
      differs: fieldChanges(base.answer, head.answer),
      steps: stepChanges(stepsOf(base.answer), stepsOf(head.answer)),
      config: configChanges(baseConfig, headConfig),
      between: {
        pipelines: betweenOldestFirst.slice(0, MAX_BETWEEN).map(brief),
        more_pipelines: Math.max(0, betweenOldestFirst.length - MAX_BETWEEN),
        changed_files: changedFiles.slice(0, MAX_CHANGED_FILES),
        more_changed_files: Math.max(0, changedFiles.length - MAX_CHANGED_FILES),
      },
      note: UNTRUSTED_NOTE,
    }),
  };
};

async function pipelinesBetween(
  context: HandlerContext,
  repoId: number,
  head: PipelineFacts,
  baseNumber: number,
): Promise<PipelineFacts[]> {
  const line = lineOf(head);
  const looked = await lookBack(
    context,
    repoId,
    line,
    head.number,
    BETWEEN_PAGES,
    (pipeline) => pipeline.number <= baseNumber,
  );
  return looked.earlier.filter((pipeline) => inLine(line, pipeline));
}

async function readConfig(
  context: HandlerContext,
  repoId: number,
  number: number,
): Promise<Map<string, string>> {
  const request = requestOf(context.toolNamed('get_pipeline_config'), { repo_id: repoId, number });
  const body = (await context.call(request)).body;
  const files = new Map<string, string>();
  for (const entry of Array.isArray(body) ? (body as Raw[]) : []) {
    const data =
      typeof entry.data === 'string' ? Buffer.from(entry.data, 'base64').toString('utf8') : '';
    files.set(String(entry.name ?? ''), data);
  }
  return files;
}

function outline(pipeline: Raw): Raw {
  return {
    number: pipeline.number,
    status: pipeline.status,
    event: pipeline.event,
    branch: pipeline.branch,
    commit: pipeline.commit,
    parent: pipeline.parent || undefined,
    // Read as the views read a pipeline: a time in UTC and how long it took.
    started: timeOf(pipeline.started),
    took: tookOf(pipeline),
  };
}

const COMPARED_FIELDS = ['event', 'branch', 'ref', 'commit', 'author', 'sender', 'deploy_to'];

function fieldChanges(base: Raw, head: Raw): Raw {
  const changes: Raw = {};
  for (const field of COMPARED_FIELDS) {
    if ((base[field] ?? '') !== (head[field] ?? ''))
      changes[field] = { base: base[field] ?? '', head: head[field] ?? '' };
  }
  const baseVars = variablesOf(base);
  const headVars = variablesOf(head);
  const variables: Raw = {};
  for (const name of unique([...Object.keys(baseVars), ...Object.keys(headVars)]).sort()) {
    if (baseVars[name] !== headVars[name])
      variables[name] = { base: cut(baseVars[name]), head: cut(headVars[name]) };
  }
  if (Object.keys(variables).length) changes.variables = variables;
  return changes;
}

function stepChanges(baseSteps: StepSummary[], headSteps: StepSummary[]): Raw {
  const key = (step: StepSummary) => `${step.workflow}/${step.name}`;
  const before = new Map(baseSteps.map((step) => [key(step), step]));
  const after = new Map(headSteps.map((step) => [key(step), step]));
  const changed = [];
  const durations = [];
  for (const step of headSteps) {
    const old = before.get(key(step));
    if (!old) continue;
    if (old.state !== step.state || old.exit_code !== step.exit_code)
      changed.push({
        workflow: step.workflow,
        name: step.name,
        // Each side's own step id, for get_step_logs on that pipeline.
        base_step_id: old.id,
        head_step_id: step.id,
        base: `${old.state} (exit ${old.exit_code})`,
        head: `${step.state} (exit ${step.exit_code})`,
      });
    const then = stepSeconds(old);
    const now = stepSeconds(step);
    if (
      then !== undefined &&
      now !== undefined &&
      Math.abs(now - then) >= NOTABLE_SECONDS &&
      Math.max(now, then) >= NOTABLE_RATIO * Math.max(1, Math.min(now, then))
    )
      durations.push({
        workflow: step.workflow,
        name: step.name,
        base_seconds: then,
        head_seconds: now,
      });
  }
  return {
    changed,
    added: headSteps.filter((step) => !before.has(key(step))).map(key),
    removed: baseSteps.filter((step) => !after.has(key(step))).map(key),
    durations,
  };
}

function configChanges(base: Map<string, string>, head: Map<string, string>): Raw {
  let budget = DIFF_BUDGET;
  const changed = [];
  for (const [name, text] of head) {
    const old = base.get(name);
    if (old === undefined || old === text) continue;
    const diff = unifiedDiff(old, text, budget);
    budget -= diff.diff.length;
    changed.push({
      file: name,
      added_lines: diff.added,
      removed_lines: diff.removed,
      diff: diff.diff,
      diff_truncated: diff.truncated || undefined,
    });
  }
  return {
    changed,
    added: [...head.keys()].filter((name) => !base.has(name)),
    removed: [...base.keys()].filter((name) => !head.has(name)),
    unchanged: [...head.keys()].filter((name) => base.get(name) === head.get(name)).length,
  };
}

/** The step's own time; the local backend's steps start and finish within a second. */
function stepSeconds(step: StepSummary): number | undefined {
  return step.started > 0 && step.finished >= step.started
    ? step.finished - step.started
    : undefined;
}

function variablesOf(pipeline: Raw): Record<string, string> {
  const variables = pipeline.variables;
  if (!variables || typeof variables !== 'object') return {};
  return Object.fromEntries(
    Object.entries(variables as Raw).map(([name, value]) => [name, String(value)]),
  );
}

function cut(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE)}…` : value;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

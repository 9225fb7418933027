// search_logs: plain text or RE2 regex across one step or every step of a pipeline.
// RE2 matches in linear time, so no pattern can hang the server; the number of lines
// scanned and of matches returned are bounded too.
import type { RE2JS } from 're2js';
import { lazyModule } from '../lazyModule.js';
import { outputLines, UNTRUSTED_NOTE, type LogLine } from './logs.js';
import { stepsOf } from './pipelineSteps.js';
import { ToolInputError } from '../call/toolErrors.js';
import type { ToolHandler } from './handlerContext.js';
import { readPipeline, readStepLog } from './pipelineReads.js';

const DEFAULT_CONTEXT = 2;
const DEFAULT_MAX_MATCHES = 50;
/** Upper bound on lines scanned in one call, whatever the pipeline's size. */
const MAX_LINES_SCANNED = 200_000;
const MAX_LINE_LENGTH = 2_000;

export type LineMatcher = (text: string) => boolean;

const re2 = lazyModule<typeof import('re2js')>('re2js');

export function compileMatcher(pattern: string, regex: boolean, ignoreCase: boolean): LineMatcher {
  if (!regex) {
    const needle = ignoreCase ? pattern.toLowerCase() : pattern;
    return (text) => (ignoreCase ? text.toLowerCase() : text).includes(needle);
  }
  let compiled: RE2JS;
  try {
    const { RE2JS: engine } = re2();
    compiled = engine.compile(pattern, ignoreCase ? engine.CASE_INSENSITIVE : 0);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolInputError(
      `pattern is not a valid regular expression (${reason}). The syntax is RE2's: no look-around or backreferences. Set regex to false to search for the text as it is.`,
    );
  }
  return (text) => compiled.matcher(text).find();
}

export interface Match {
  readonly step_id: number;
  readonly step: string;
  readonly line: number;
  readonly stream: string;
  readonly text: string;
  readonly before: { line: number; text: string }[];
  readonly after: { line: number; text: string }[];
}

export function searchLines(
  lines: readonly LogLine[],
  matcher: LineMatcher,
  step: { id: number; name: string },
  context: number,
  budget: { matches: number },
): Match[] {
  const matches: Match[] = [];
  for (let index = 0; index < lines.length && budget.matches > 0; index++) {
    const line = lines[index]!;
    if (!matcher(line.text.slice(0, MAX_LINE_LENGTH))) continue;
    budget.matches--;
    const around = (from: number, to: number) => lines.slice(Math.max(0, from), Math.max(0, to)).map((other) => ({ line: other.line, text: other.text }));
    matches.push({
      step_id: step.id,
      step: step.name,
      line: line.line,
      stream: line.stream,
      text: line.text,
      before: around(index - context, index),
      after: around(index + 1, index + 1 + context),
    });
  }
  return matches;
}

export const searchLogs: ToolHandler = async (context) => {
  const { repo_id: repoId, number } = context.args;
  const pattern = String(context.args.pattern ?? '');
  if (pattern.length === 0) throw new ToolInputError('pattern is empty: give the text or regular expression to look for.');
  const matcher = compileMatcher(pattern, context.args.regex === true, context.args.ignore_case === true);
  const contextLines = typeof context.args.context === 'number' ? context.args.context : DEFAULT_CONTEXT;
  const maxMatches = typeof context.args.max_matches === 'number' ? context.args.max_matches : DEFAULT_MAX_MATCHES;

  const steps = stepsOf(await readPipeline(context, repoId, number));
  const wanted = context.args.step_id === undefined ? steps : steps.filter((step) => step.id === context.args.step_id);
  if (wanted.length === 0) {
    throw new ToolInputError(
      context.args.step_id === undefined
        ? `pipeline ${String(number)} has no steps yet.`
        : `pipeline ${String(number)} has no step with id ${String(context.args.step_id)}; get_pipeline lists the step ids (workflows[].children[].id).`,
    );
  }

  const budget = { matches: maxMatches };
  const matches: Match[] = [];
  let scanned = 0;
  let stepsSearched = 0;
  let scanLimited = false;
  for (const step of wanted) {
    if (budget.matches <= 0) break;
    if (scanned >= MAX_LINES_SCANNED) {
      scanLimited = true;
      break;
    }
    const lines = outputLines(await readStepLog(context, repoId, number, step.id)).slice(0, MAX_LINES_SCANNED - scanned);
    scanned += lines.length;
    stepsSearched++;
    matches.push(...searchLines(lines, matcher, step, contextLines, budget));
  }

  return {
    data: {
      repo_id: repoId,
      number,
      pattern_kind: context.args.regex === true ? 'regex' : 'text',
      steps_searched: stepsSearched,
      lines_scanned: scanned,
      matches,
      match_count: matches.length,
      limited: budget.matches <= 0 || scanLimited,
      ...(budget.matches <= 0 ? { limit_note: `Stopped at max_matches (${maxMatches}); narrow the pattern or raise max_matches.` } : {}),
      note: UNTRUSTED_NOTE,
    },
    shortenable: { field: 'matches', keep: 'start', narrow: 'a smaller max_matches or context, or one step_id' },
  };
};

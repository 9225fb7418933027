// search_logs: plain text or RE2 regex across one step or every step of a pipeline.
// RE2 matches in linear time, so no pattern can hang the server; the number of lines
// scanned and of matches returned are bounded too.
import type { RE2JS } from 're2js';
import { lazyModule } from '../core/lazyModule.js';
import { UNTRUSTED_NOTE, type LogLine } from './reads/logs.js';
import { stepsOf } from './reads/pipelineSteps.js';
import { ToolInputError } from '../core/errors.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { readPipeline, scanStepLog } from './reads/pipelineReads.js';

export const DEFAULT_CONTEXT = 2;
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
  // test() answers "is it anywhere in the line" on RE2's DFA without building a Matcher
  // per line: 4 to 6 times faster than matcher(text).find() over a long log, same answer.
  return (text) => compiled.test(text);
}

export interface Match {
  readonly step_id: number;
  readonly step: string;
  readonly line: number;
  readonly stream: string;
  /** An unknown entry type's number (stream "other"). */
  readonly type?: number;
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
  const search = new LineSearch(matcher, step, context, budget);
  for (const line of lines) if (!search.push(line)) break;
  return search.matches;
}

type Around = { line: number; text: string };

/**
 * Searches lines as they stream past: it keeps the last `context` lines for the next
 * match's `before`, and the matches still waiting for their `after` lines.
 */
export class LineSearch {
  readonly matches: Match[] = [];
  // The last `context` lines as they came; copied only into a match's `before`.
  private readonly recent: LogLine[] = [];
  private readonly waiting: Around[][] = [];

  constructor(
    private readonly matcher: LineMatcher,
    private readonly step: { id: number; name: string },
    private readonly context: number,
    private readonly budget: { matches: number },
  ) {}

  /** False once nothing more can come of further lines (the budget is spent, every match has its context). */
  push(line: LogLine): boolean {
    if (this.waiting.length > 0) {
      for (const after of this.waiting) after.push(aroundOf(line));
      while (this.waiting.length > 0 && this.waiting[0]!.length >= this.context)
        this.waiting.shift();
    }
    if (this.budget.matches > 0 && this.matcher(line.text.slice(0, MAX_LINE_LENGTH))) {
      this.budget.matches--;
      const after: Around[] = [];
      this.matches.push({
        step_id: this.step.id,
        step: this.step.name,
        line: line.line,
        stream: line.stream,
        ...(line.type !== undefined ? { type: line.type } : {}),
        text: line.text,
        before: this.recent.map(aroundOf),
        after,
      });
      if (this.context > 0) this.waiting.push(after);
    }
    if (this.context > 0) {
      this.recent.push(line);
      if (this.recent.length > this.context) this.recent.shift();
    }
    return this.budget.matches > 0 || this.waiting.length > 0;
  }
}

const aroundOf = (line: LogLine): Around => ({ line: line.line, text: line.text });

/**
 * A match as a model reads it: the lines around it as their texts alone (the ones just
 * before and after it, in order), the stream only when it is stderr, an unknown entry type
 * by its number, nothing empty.
 */
function matchAnswer(match: Match): Record<string, unknown> {
  const { before, after, stream, ...rest } = match;
  return {
    ...rest,
    ...(stream === 'stderr' ? { stream } : {}),
    ...(before.length > 0 ? { before: before.map((line) => line.text) } : {}),
    ...(after.length > 0 ? { after: after.map((line) => line.text) } : {}),
  };
}

export const searchLogs: HandlerOf<'search_logs'> = async (context) => {
  const { repo_id: repoId, number } = context.args;
  const pattern = String(context.args.pattern ?? '');
  if (pattern.length === 0)
    throw new ToolInputError('pattern is empty: give the text or regular expression to look for.');
  const matcher = compileMatcher(
    pattern,
    context.args.regex === true,
    context.args.ignore_case === true,
  );
  const contextLines =
    typeof context.args.context === 'number' ? context.args.context : DEFAULT_CONTEXT;
  const maxMatches =
    typeof context.args.max_matches === 'number' ? context.args.max_matches : DEFAULT_MAX_MATCHES;

  const steps = stepsOf(await readPipeline(context, repoId, number));
  const wanted =
    context.args.step_id === undefined
      ? steps
      : steps.filter((step) => step.id === context.args.step_id);
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
    // A step cut short at the scan limit is a limited search, even when it is the last one:
    // the first line past the limit says so.
    const search = new LineSearch(matcher, step, contextLines, budget);
    stepsSearched++;
    await scanStepLog(context, repoId, number, step.id, (line) => {
      if (scanned >= MAX_LINES_SCANNED) {
        scanLimited = true;
        return false;
      }
      scanned++;
      return search.push(line);
    });
    matches.push(...search.matches);
  }

  return {
    data: {
      // The caller named the repository, the pipeline and the kind of pattern.
      steps_searched: stepsSearched,
      lines_scanned: scanned,
      matches: matches.map(matchAnswer),
      match_count: matches.length,
      limited: budget.matches <= 0 || scanLimited,
      ...(budget.matches <= 0
        ? {
            limit_note: `Stopped at max_matches (${maxMatches}); narrow the pattern or raise max_matches.`,
          }
        : {}),
      note: UNTRUSTED_NOTE,
    },
    shortenable: {
      field: 'matches',
      keep: 'start',
      narrow: 'a smaller max_matches or context, or one step_id',
    },
  };
};

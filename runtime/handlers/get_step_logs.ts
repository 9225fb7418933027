// get_step_logs: decoded, ordered, ANSI-stripped and windowed, each line its text alone
// (logs.ts linesAnswer). The manifest marks it untrusted; the output step applies that and
// the result limit, which keeps the end of a tail window (where failures are) or the start
// of a head window or one from a line, and renumbers what it keeps.
//
// The step's state is read before its log, and a step that ended only just now says its
// log may still grow (log_may_grow): Woodpecker's agent sends log lines in batches once a second,
// apart from its report that the step ended, so the last lines arrive after the step is
// marked done (measured on the harness: 2 of 9 lines were missing right after). An agent
// following a live log (from: next_line, again and again) stops when neither running nor
// log_may_grow is set, and misses nothing.
import { linesAnswer, UNTRUSTED_NOTE, WindowCollector, type WindowStart } from './reads/logs.js';
import { RUNNING_STATES, stepsOf, type StepSummary } from './reads/pipelineSteps.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';
import { scanStepLog } from './reads/pipelineReads.js';
import { stepLogLink } from '../output/resourceLinks.js';

const DEFAULT_LIMIT = 200;
/** How long after a step ends its last log lines may still arrive (the agent flushes each second). */
const LOG_SETTLE_SECONDS = 10;

/** Whether the step runs, or ended so recently that lines may still come (by Woodpecker's clock). */
function stillWriting(step: StepSummary, serverDate: string | undefined): boolean {
  if (RUNNING_STATES.has(step.state)) return true;
  const now = (serverDate ? Date.parse(serverDate) : NaN) / 1000;
  const clock = Number.isFinite(now) ? now : Date.now() / 1000;
  return step.finished > 0 && clock - step.finished < LOG_SETTLE_SECONDS;
}

/** "head", "tail" (the default) or a line number, given as text or as a number. */
function windowStart(from: unknown): WindowStart {
  if (from === 'head') return 'head';
  if (from === undefined || from === 'tail') return 'tail';
  return Number(from);
}

export const getStepLogs: HandlerOf<'get_step_logs'> = async (context) => {
  const { repo_id: repoId, number, step_id: stepId } = context.args;
  const limit = typeof context.args.limit === 'number' ? context.args.limit : DEFAULT_LIMIT;
  const from = windowStart(context.args.from);

  const pipeline = await context.call(
    requestOf(context.toolNamed('get_pipeline'), { repo_id: repoId, number }),
  );
  const step = stepsOf(pipeline.body).find((candidate) => candidate.id === Number(stepId));
  // Only the window is kept while the log streams past; the rest is counted.
  const collector = new WindowCollector(limit, from);
  await scanStepLog(context, repoId, number, Number(stepId), (line) => collector.add(line));
  const window = collector.window();
  const { lines: texts, ...numbers } = linesAnswer(window.lines);
  const nextAfter = (last: number | undefined) =>
    last !== undefined ? last + 1 : typeof from === 'number' ? from : (window.total_lines ?? 0);

  return {
    data: {
      // The caller named the repository, pipeline and step: they are not repeated.
      step: step
        ? {
            name: step.name,
            state: step.state,
            exit_code: step.exit_code,
            error: step.error || undefined,
          }
        : undefined,
      // Only when true, like every flag of an answer: absent, the step has ended.
      running: step && RUNNING_STATES.has(step.state) ? true : undefined,
      // Ended, but so recently that its last lines may still arrive: poll once more.
      log_may_grow:
        step && !RUNNING_STATES.has(step.state) && stillWriting(step, pipeline.headers['date'])
          ? true
          : undefined,
      total_lines: window.total_lines,
      from: typeof from === 'number' ? undefined : window.from,
      ...numbers,
      next_line: nextAfter(numbers.last_line),
      more: typeof from === 'number' && window.total_lines === undefined ? true : undefined,
      lines: texts,
      note: UNTRUSTED_NOTE,
    },
    shortenable: {
      field: 'lines',
      keep: from === 'tail' ? 'end' : 'start',
      narrow: 'a smaller limit, or search_logs to find lines by pattern',
      describe: (start, end) => {
        const { lines: _kept, ...kept } = linesAnswer(window.lines.slice(start, end));
        // Kept from the start: the next line is the first one left out, not the window's end.
        return from === 'tail'
          ? kept
          : { ...kept, next_line: nextAfter(kept.last_line), more: true };
      },
    },
    links: window.truncated ? [stepLogLink(repoId, number, stepId, step?.name ?? '')] : [],
  };
};

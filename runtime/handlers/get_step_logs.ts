// get_step_logs: decoded, ordered, ANSI-stripped and windowed, each line its text alone
// (logs.ts linesAnswer). The manifest marks it untrusted; the output step applies that and
// the result limit, which keeps the end of a tail window (where failures are) or the start
// of a head window, and renumbers what it keeps.
import { linesAnswer, UNTRUSTED_NOTE, WindowCollector } from './logs.js';
import { stepsOf } from './pipelineSteps.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { readPipeline, scanStepLog } from './pipelineReads.js';
import { stepLogLink } from './resourceLinks.js';

const DEFAULT_LIMIT = 200;

export const getStepLogs: HandlerOf<'get_step_logs'> = async (context) => {
  const { repo_id: repoId, number, step_id: stepId } = context.args;
  const limit = typeof context.args.limit === 'number' ? context.args.limit : DEFAULT_LIMIT;
  const from = context.args.from === 'head' ? 'head' : 'tail';

  // Only the window is kept while the log streams past; the rest is counted.
  const collector = new WindowCollector(limit, from);
  await scanStepLog(context, repoId, number, Number(stepId), (line) => collector.add(line));
  const step = stepsOf(await readPipeline(context, repoId, number)).find(
    (candidate) => candidate.id === Number(stepId),
  );
  const window = collector.window();
  const { lines: texts, ...numbers } = linesAnswer(window.lines);

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
      total_lines: window.total_lines,
      from: window.from,
      ...numbers,
      lines: texts,
      note: UNTRUSTED_NOTE,
    },
    shortenable: {
      field: 'lines',
      keep: from === 'tail' ? 'end' : 'start',
      narrow: 'a smaller limit, or search_logs to find lines by pattern',
      describe: (start, end) => {
        const { lines: _kept, ...kept } = linesAnswer(window.lines.slice(start, end));
        return kept;
      },
    },
    links: window.truncated ? [stepLogLink(repoId, number, stepId, step?.name ?? '')] : [],
  };
};

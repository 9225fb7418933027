// get_step_logs: decoded, ordered, ANSI-stripped, windowed, and marked untrusted.
import { outputLines, renderLines, UNTRUSTED_NOTE, windowOf } from './logs.js';
import { stepsOf } from './pipelineSteps.js';
import { structuredResult, TEXT_BUDGET } from '../call/output.js';
import type { ToolHandler } from './handlerContext.js';
import { readPipeline, readStepLog } from './pipelineReads.js';

const DEFAULT_LIMIT = 200;

// The text block repeats the lines for clients that only read text; past the budget it
// keeps the end of a tail window (where failures are) or the start of a head window.
function withinBudget(text: string, from: 'head' | 'tail'): string {
  if (text.length <= TEXT_BUDGET) return text;
  const cut = text.length - TEXT_BUDGET;
  return from === 'tail'
    ? `… (${cut} earlier characters are in structuredContent)\n${text.slice(cut)}`
    : `${text.slice(0, TEXT_BUDGET)}\n… (${cut} more characters are in structuredContent)`;
}

export const getStepLogs: ToolHandler = async (context) => {
  const { repo_id: repoId, number, step_id: stepId } = context.args;
  const limit = typeof context.args.limit === 'number' ? context.args.limit : DEFAULT_LIMIT;
  const from = context.args.from === 'head' ? 'head' : 'tail';

  const lines = outputLines(await readStepLog(context, repoId, number, Number(stepId)));
  const step = stepsOf(await readPipeline(context, repoId, number)).find((candidate) => candidate.id === Number(stepId));
  const window = windowOf(lines, limit, from);

  const structured = {
    repo_id: repoId,
    number,
    step_id: stepId,
    step: step ? { name: step.name, state: step.state, exit_code: step.exit_code, error: step.error || undefined } : null,
    exit_code: step?.exit_code ?? null,
    total_lines: window.total_lines,
    window: {
      from: window.from,
      returned: window.returned,
      first_line: window.first_line,
      last_line: window.last_line,
      truncated: window.truncated,
    },
    lines: window.lines,
    note: UNTRUSTED_NOTE,
  };
  const header =
    `Step ${String(stepId)} of pipeline ${String(number)} in repository ${String(repoId)}` +
    (step ? `: state ${step.state}, exit code ${step.exit_code}` : '') +
    `. ${window.from === 'tail' ? 'Last' : 'First'} ${window.returned} of ${window.total_lines} lines` +
    (window.first_line === null ? '' : ` (lines ${window.first_line}–${window.last_line})`) +
    `.\n${UNTRUSTED_NOTE}\n--- begin untrusted build output ---\n`;
  const result = structuredResult(structured, true);
  return { ...result, content: [{ type: 'text', text: `${header}${withinBudget(renderLines(window.lines), window.from)}\n--- end untrusted build output ---` }] };
};

// Reads several handlers share, each through the manifest's own request builders.
import { ToolOutcomeError } from '../../core/errors.js';
import { JsonArrayElements } from './jsonArrayElements.js';
import { decodeLogEntry, isOutput, type LogLine } from './logs.js';
import type { HandlerContext } from '../../call/handlerContext.js';
import { requestOf } from '../../call/handlerContext.js';

export async function readPipeline(
  context: HandlerContext,
  repoId: number,
  number: number | 'latest',
  options: { readonly fresh?: boolean } = {},
): Promise<unknown> {
  const request = requestOf(context.toolNamed('get_pipeline'), { repo_id: repoId, number });
  // A call reads each address once (runtime/call/callReader.ts); a poll must see the present.
  return (await (options.fresh ? context.fresh(request) : context.call(request))).body;
}

/**
 * Hands each output line of a step's log (stdout and stderr, as Woodpecker stores them,
 * in its order: by entry id, which is the order the agent sent them) to `visit` while the
 * answer arrives; nothing but what `visit` keeps stays in memory. `visit` returns false
 * to stop reading.
 */
export async function scanStepLog(
  context: HandlerContext,
  repoId: number,
  number: number,
  stepId: number,
  visit: (line: LogLine) => boolean | void,
): Promise<void> {
  const getStepLogs = context.toolNamed('get_step_logs');
  let position = 0;
  const elements = new JsonArrayElements((entry) => {
    const line = decodeLogEntry(entry, position++);
    return line && isOutput(line) ? visit(line) : true;
  });
  const request = requestOf(getStepLogs, { repo_id: repoId, number, step_id: stepId });
  let stopped = false;
  try {
    await context.stream(request, (text) => {
      if (elements.push(text)) return true;
      stopped = true;
      return false;
    });
  } catch (error) {
    if (error instanceof SyntaxError)
      throw new ToolOutcomeError(
        `Woodpecker's answer to GET ${request.path} is not valid JSON; nothing was taken from it.`,
      );
    throw error;
  }
  // A body cut short (a proxy, a dropped connection) would otherwise read as a shorter log.
  if (!stopped && !elements.complete) {
    throw new ToolOutcomeError(
      `Woodpecker's answer to GET ${request.path} broke off before its end; call again.`,
    );
  }
}

// Reads several handlers share, each through the manifest's own request builders.
import { decodeLogEntries, type LogLine } from './logs.js';
import type { HandlerContext } from './handlerContext.js';
import { requestOf } from './handlerContext.js';

export async function readPipeline(context: HandlerContext, repoId: unknown, number: unknown): Promise<unknown> {
  const getPipeline = context.toolNamed('get_pipeline');
  return (await context.call(requestOf(getPipeline, { repo_id: repoId, number: String(number) }))).body;
}

export async function readStepLog(context: HandlerContext, repoId: unknown, number: unknown, stepId: number): Promise<LogLine[]> {
  const getStepLogs = context.toolNamed('get_step_logs');
  const response = await context.call(requestOf(getStepLogs, { repo_id: repoId, number, step_id: stepId }));
  return decodeLogEntries(response.body);
}

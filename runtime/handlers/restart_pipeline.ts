// restart_pipeline: reads the pipeline and its repository first and refuses the restarts
// that would run code no person approved (see restartPolicy.ts). Two GETs before the
// POST; the restart itself is the manifest's call, unchanged.
import { answerOf } from '../output/answer.js';
import { ToolPolicyRefusal } from '../core/errors.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';
import { readPipeline } from './pipelineReads.js';
import { restartRefusal } from './restartPolicy.js';

export const restartPipeline: HandlerOf<'restart_pipeline'> = async (context) => {
  const { repo_id, number, event, deploy_to } = context.args;
  const pipeline = await readPipeline(context, repo_id, number);
  const repo = (await context.call(requestOf(context.toolNamed('get_repository'), { repo_id })))
    .body;
  const refusal = restartRefusal(pipeline, repo, {
    repoId: Number(repo_id),
    number: Number(number),
    event,
    deployTo: deploy_to,
  });
  if (refusal) throw new ToolPolicyRefusal(`refused: ${refusal}`);
  const response = await context.call(requestOf(context.tool, context.args));
  return answerOf(context.tool, context.args, response);
};

// restart_pipeline: reads the pipeline and its repository first and refuses the restarts
// that would run code no person approved (see restartPolicy.ts). Two GETs before the
// POST; the restart itself is the manifest's call, unchanged. With only_if_infrastructure
// it restarts only what the machine broke (infrastructureFailure.ts); with dry_run it says
// what it would do and sends no POST.
import { answerOf } from '../output/answer.js';
import { ToolPolicyRefusal } from '../core/errors.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';
import { readPipeline } from './reads/pipelineReads.js';
import { restartRefusal } from './insight/restartPolicy.js';
import { infrastructureVerdict } from './insight/infrastructureFailure.js';

export const restartPipeline: HandlerOf<'restart_pipeline'> = async (context) => {
  const { repo_id, number, event, deploy_to, only_if_infrastructure, dry_run } = context.args;
  const pipeline = await readPipeline(context, repo_id, number);
  const repo = (await context.call(requestOf(context.toolNamed('get_repository'), { repo_id })))
    .body;
  const refusal = restartRefusal(pipeline, repo, {
    repoId: Number(repo_id),
    number: Number(number),
    event,
    deployTo: deploy_to,
  });
  const status = (pipeline as { status?: unknown } | undefined)?.status;
  // A dry run, or a restart the verdict keeps back, starts nothing: its limit place goes back.
  const verdict = only_if_infrastructure === true ? infrastructureVerdict(pipeline) : undefined;
  if (dry_run === true || (verdict && !verdict.infrastructure)) context.startedNothing();
  if (refusal && dry_run === true)
    return { data: { restarted: false, would_restart: false, reason: `refused: ${refusal}` } };
  if (refusal) throw new ToolPolicyRefusal(`refused: ${refusal}`);

  if (verdict && !verdict.infrastructure)
    return {
      data: {
        restarted: false,
        ...(dry_run === true ? { would_restart: false } : {}),
        status,
        reason: `Not restarted: ${verdict.reason}. A restart would most likely fail the same way; get_pipeline_failure shows the logs.`,
        failed_steps: verdict.failed_steps,
      },
    };
  if (dry_run === true)
    return {
      data: {
        restarted: false,
        would_restart: true,
        status,
        reason: verdict
          ? `It would restart pipeline ${Number(number)}: ${verdict.reason}.`
          : `It would restart pipeline ${Number(number)} (status ${String(status)}); nothing refuses it.`,
        ...(verdict ? { failed_steps: verdict.failed_steps } : {}),
      },
    };
  const response = await context.call(requestOf(context.tool, context.args));
  const answer = answerOf(context.tool, context.args, response);
  if (!verdict || typeof answer.data !== 'object' || answer.data === null) return answer;
  // The new pipeline is shown through its view; why it was restarted is this server's own field.
  return {
    ...answer,
    data: { ...answer.data, restarted_because: verdict.reason },
    ...(answer.view ? { view: [...answer.view, { name: 'restarted_because', show: 'copy' }] } : {}),
  };
};

// resolve_link: a pasted Woodpecker address or "owner/name" → the ids the tools take.
// One small tool rather than a `url` argument on get_pipeline_failure, search_logs and
// wait_for_pipeline: in the tool list it costs about as much as three such arguments
// (~210 tokens against ~150, plus the words each description would need to say "ids or
// url"), but those three keep repo_id and number required, so a call missing an id is
// still caught by the schema, and the same resolver serves get_step_logs (a step's pid in
// the address becomes its step_id), repository pages, owner/name and the prompts.
// The address is only parsed (linkParts.ts); what it names is then read from Woodpecker
// with the caller's token and checked against WOODPECKER_REPOS before anything else.
import {
  CallRefused,
  requestOf,
  type HandlerContext,
  type HandlerOf,
} from '../call/handlerContext.js';
import { parseLink } from './reads/linkParts.js';
import { readPipeline } from './reads/pipelineReads.js';
import { pipelineStatus, workflowsOf } from './reads/pipelineSteps.js';
import { RequestArgumentError } from '../woodpecker/requestParts.js';

type Raw = Record<string, unknown>;

export const resolveLink: HandlerOf<'resolve_link'> = async (context) => {
  const parsed = parseLink(String(context.args.link), context.woodpeckerUrl);
  const named =
    'id' in parsed.repo ? { repo_id: parsed.repo.id } : { full_name: parsed.repo.fullName };
  // Before any other read: a hidden repository answers as a missing one, whatever else the link names.
  const refusal = await context.checkRepository(named);
  if (refusal) throw new CallRefused(refusal);
  const repo = await readRepository(context, named);
  const repoId = Number(repo.id);
  const data: Raw = { repo_id: repoId, full_name: repo.full_name };
  if (parsed.page !== undefined) data.page = parsed.page;
  if (parsed.number === undefined) {
    return { data: { ...data, next: 'Pipelines: list_pipelines with this repo_id.' } };
  }

  const pipeline = await readPipeline(context, repoId, parsed.number);
  data.number = parsed.number;
  data.status = pipelineStatus(pipeline);
  if (context.args.compare_with !== undefined) {
    const other = await secondPipeline(context, String(context.args.compare_with), repoId);
    if (other === parsed.number)
      throw new RequestArgumentError(
        'compare_with names the same pipeline as link; paste another',
        'compare_with',
      );
    return {
      data: {
        ...data,
        other,
        other_status: pipelineStatus(await readPipeline(context, repoId, other)),
        next: 'compare_pipelines takes this repo_id, number and other.',
      },
    };
  }
  if (parsed.pid === undefined) {
    return {
      data: {
        ...data,
        next: 'get_pipeline_failure, search_logs and wait_for_pipeline take this repo_id and number.',
      },
    };
  }

  // The web UI puts a pid in the address: a step's, or a workflow's (they share one sequence).
  const workflows = workflowsOf(pipeline);
  const step = workflows
    .flatMap((workflow) => workflow.steps)
    .find((candidate) => candidate.pid === parsed.pid);
  if (step) {
    return {
      data: {
        ...data,
        step_id: step.id,
        step: step.name,
        workflow: step.workflow,
        step_state: step.state,
        next: 'get_step_logs and search_logs take this step_id.',
      },
    };
  }
  const rawWorkflows = Array.isArray((pipeline as Raw).workflows)
    ? ((pipeline as Raw).workflows as Raw[])
    : [];
  const index = rawWorkflows.findIndex((workflow) => Number(workflow.pid) === parsed.pid);
  const workflow = index >= 0 ? workflows[index] : undefined;
  if (!workflow) {
    throw new RequestArgumentError(
      `link names step or workflow ${parsed.pid} of pipeline ${parsed.number}, and that pipeline has none with this number. get_pipeline lists its steps`,
      'link',
    );
  }
  return {
    data: {
      ...data,
      workflow: workflow.name,
      workflow_state: workflow.state,
      steps: workflow.steps.map((candidate) => ({
        step_id: candidate.id,
        name: candidate.name,
        state: candidate.state,
      })),
      next: 'get_step_logs and search_logs take a step_id from steps.',
    },
  };
};

/** The pipeline number a second link names, which must be of the same repository. */
async function secondPipeline(
  context: HandlerContext,
  link: string,
  repoId: number,
): Promise<number> {
  const parsed = parseLink(link, context.woodpeckerUrl);
  if (parsed.number === undefined)
    throw new RequestArgumentError(
      'compare_with names no pipeline; paste the address of a pipeline page (https://<server>/repos/<id>/pipeline/<number>)',
      'compare_with',
    );
  let otherRepoId: number;
  if ('id' in parsed.repo) {
    otherRepoId = parsed.repo.id;
  } else {
    const named = { full_name: parsed.repo.fullName };
    const refusal = await context.checkRepository(named);
    if (refusal) throw new CallRefused(refusal);
    otherRepoId = Number((await readRepository(context, named)).id);
  }
  // Compared only within one repository: numbers of two repositories say nothing of each other.
  if (otherRepoId !== repoId)
    throw new RequestArgumentError(
      `compare_with names a pipeline of another repository than link (repository ${otherRepoId}, not ${repoId}); compare_pipelines compares two pipelines of one repository`,
      'compare_with',
    );
  return parsed.number;
}

async function readRepository(
  context: HandlerContext,
  named: { repo_id: number } | { full_name: string },
): Promise<Raw> {
  const tool = context.toolNamed('repo_id' in named ? 'get_repository' : 'lookup_repository');
  return (await context.call(requestOf(tool, named))).body as Raw;
}

// failures_by_agent: "is it the machine?" A repository's finished pipelines over a window,
// each workflow counted against the agent that ran it (workflows record agent_id), so
// "every failure this morning ran on agent 3" is one answer. With an instance admin token
// it also names the server's agents and says which are busy (running a task now), idle,
// or unseen (no contact for UNSEEN_AFTER_S); other tokens see agent ids only, and the
// answer says so.
// Woodpecker requests: up to LIST_PAGES list pages, MAX_READ get_pipeline reads, the agent
// list and the queue: 24 at most.
import { requestOf, type HandlerContext, type ToolHandler } from '../call/handlerContext.js';
import { WoodpeckerHttpError } from '../woodpecker/woodpeckerClient.js';
import { compact } from './compactAnswer.js';
import { PAGE_SIZE, type Raw } from './pipelineHistory.js';
import { readPipeline } from './pipelineReads.js';
import { FAILED_STATES } from './pipelineSteps.js';

const DEFAULT_HOURS = 24;
const LIST_PAGES = 2;
/** Finished pipelines read whole (newest first) for their workflows' agents. */
export const MAX_READ = 20;
const TIME_LIMIT_MS = 20_000;
const UNSEEN_AFTER_S = 600;
const MAX_NUMBERS = 10;

interface AgentTally {
  workflows: number;
  failed: number;
  failed_pipelines: number[];
}

export const failuresByAgent: ToolHandler = async (context) => {
  const began = Date.now();
  const repoId = context.args.repo_id;
  const hours = typeof context.args.hours === 'number' ? context.args.hours : DEFAULT_HOURS;
  const after = new Date(began - hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  const finished: Raw[] = [];
  let complete = false;
  for (let page = 1; page <= LIST_PAGES; page++) {
    const request = requestOf(context.toolNamed('list_pipelines'), {
      repo_id: repoId,
      after,
      page,
      per_page: PAGE_SIZE,
    });
    const body = (await context.call(request)).body;
    const list = Array.isArray(body) ? (body as Raw[]) : [];
    finished.push(
      ...list.filter(
        (pipeline) => pipeline.status === 'success' || FAILED_STATES.has(String(pipeline.status)),
      ),
    );
    if (list.length < PAGE_SIZE) {
      complete = true;
      break;
    }
  }

  const stopped: string[] = [];
  if (!complete) stopped.push(`only the newest ${LIST_PAGES * PAGE_SIZE} pipelines were listed`);
  if (finished.length > MAX_READ)
    stopped.push(`the newest ${MAX_READ} of ${finished.length} finished pipelines were read`);
  const tallies = new Map<number, AgentTally>();
  let read = 0;
  for (const pipeline of finished.slice(0, MAX_READ)) {
    if (Date.now() - began > TIME_LIMIT_MS) {
      stopped.push(`the time limit (${TIME_LIMIT_MS / 1000} s) ended reading after ${read}`);
      break;
    }
    const whole = (await readPipeline(context, repoId, pipeline.number)) as Raw;
    read++;
    for (const workflow of Array.isArray(whole.workflows) ? (whole.workflows as Raw[]) : []) {
      const agentId = Number(workflow.agent_id ?? 0);
      const state = String(workflow.state ?? '');
      if (state !== 'success' && !FAILED_STATES.has(state)) continue;
      const tally = tallies.get(agentId) ?? { workflows: 0, failed: 0, failed_pipelines: [] };
      tally.workflows++;
      if (FAILED_STATES.has(state)) {
        tally.failed++;
        const number = Number(whole.number);
        if (!tally.failed_pipelines.includes(number)) tally.failed_pipelines.push(number);
      }
      tallies.set(agentId, tally);
    }
  }

  const fleet = await agentFleet(context, began);
  const agents = [...tallies]
    .sort(([, a], [, b]) => b.failed - a.failed || b.workflows - a.workflows)
    .map(([agentId, tally]) => ({
      // 0: the workflow never reached an agent (a config error, or canceled while queued).
      agent_id: agentId || undefined,
      no_agent: agentId === 0 || undefined,
      ...(fleet.byId.get(agentId) ?? {}),
      workflows: tally.workflows,
      failed: tally.failed,
      failed_pipelines: tally.failed_pipelines.slice(0, MAX_NUMBERS),
      more_failed_pipelines: Math.max(0, tally.failed_pipelines.length - MAX_NUMBERS),
    }));

  return {
    data: compact({
      repo_id: repoId,
      after,
      summary: summaryOf(agents, read),
      agents,
      fleet: fleet.agents,
      fleet_note: fleet.note,
      pipelines_read: read,
      stopped_early: stopped.length ? `${stopped.join('; ')}.` : undefined,
    }),
  };
};

function summaryOf(
  agents: readonly { agent_id?: number | undefined; failed: number; workflows: number }[],
  read: number,
): string {
  const failed = agents.reduce((sum, agent) => sum + agent.failed, 0);
  if (!read) return 'No finished pipeline in the window.';
  if (!failed) return `No workflow failed in the ${read} finished pipelines read.`;
  const parts = agents
    .filter((agent) => agent.failed)
    .map(
      (agent) =>
        `${agent.failed} of ${agent.workflows} on ${agent.agent_id ? `agent ${agent.agent_id}` : 'no agent'}`,
    );
  return `${failed} failed workflows in ${read} finished pipelines: ${parts.join(', ')}.`;
}

interface Fleet {
  readonly byId: Map<number, Raw>;
  readonly agents?: Raw[];
  readonly note?: string;
}

/** The server's agents and what each is doing; an instance admin's view only. */
async function agentFleet(context: HandlerContext, now: number): Promise<Fleet> {
  let listed: Raw[];
  let running: Raw[];
  try {
    const agents = await context.call(
      requestOf(context.toolNamed('list_agents'), { per_page: PAGE_SIZE }),
    );
    const queue = await context.call(requestOf(context.toolNamed('get_queue_info'), {}));
    listed = Array.isArray(agents.body) ? (agents.body as Raw[]) : [];
    const info = (queue.body ?? {}) as Raw;
    running = Array.isArray(info.running) ? (info.running as Raw[]) : [];
  } catch (error) {
    if (error instanceof WoodpeckerHttpError && (error.status === 401 || error.status === 403))
      return {
        byId: new Map(),
        note: "Agent names and whether each is busy, idle or unseen need an instance admin's token; this token sees agent ids only.",
      };
    throw error;
  }
  const busy = new Set(running.map((task) => Number(task.agent_id ?? 0)));
  const byId = new Map<number, Raw>();
  const agents = listed.map((agent) => {
    const id = Number(agent.id);
    const lastContact = Number(agent.last_contact ?? 0);
    const state = busy.has(id)
      ? 'busy'
      : lastContact > 0 && now / 1000 - lastContact <= UNSEEN_AFTER_S
        ? 'idle'
        : 'unseen';
    // Only these fields: an agent's token never leaves the process.
    const described = {
      name: String(agent.name ?? ''),
      state,
      last_contact: lastContact
        ? new Date(lastContact * 1000).toISOString().replace('.000Z', 'Z')
        : undefined,
      no_schedule: agent.no_schedule === true || undefined,
    };
    byId.set(id, described);
    return { agent_id: id, ...described };
  });
  return { byId, agents };
}

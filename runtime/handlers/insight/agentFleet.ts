// Which agents the server has and what each is doing: busy (running a task now), idle,
// or unseen (no contact for UNSEEN_AFTER_S). Only an instance admin may read the agent
// list and the queue; for any other token the answer says what it cannot see. Two
// Woodpecker requests.
import { requestOf, type HandlerContext } from '../../call/handlerContext.js';
import { WoodpeckerHttpError } from '../../woodpecker/woodpeckerClient.js';
import { PAGE_SIZE, type Raw } from './pipelineHistory.js';

const UNSEEN_AFTER_S = 600;

export interface Fleet {
  readonly byId: Map<number, Raw>;
  readonly agents?: Raw[];
  readonly note?: string;
}

/** The server's agents and what each is doing; an instance admin's view only. */
export async function agentFleet(context: HandlerContext, now: number): Promise<Fleet> {
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

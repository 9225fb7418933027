// A real Woodpecker for the bench (the test harness's stack: server, local agent, forge
// stand-in) and the few API calls the figures need to set up repositories and pipelines.
import { Agent, request } from 'undici';
import { stringify } from 'yaml';
import { startStack, type Stack } from '../test/harness/stack.js';

export interface Woodpecker {
  readonly stack: Stack;
  readonly url: string;
  readonly token: string;
  /** One undici pool, as our server keeps one: the baseline pays no connection setup either. */
  readonly dispatcher: Agent;
  get(path: string): Promise<unknown>;
  /** The raw body of a GET, as bytes. */
  getRaw(path: string): Promise<Buffer>;
  send(method: string, path: string, body?: unknown): Promise<unknown>;
}

export async function startWoodpecker(version?: string): Promise<Woodpecker> {
  const stack = await startStack(version ? { version } : {});
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 16 });
  const send = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await request(`${stack.url}${path}`, {
      method: method as 'GET',
      headers: {
        authorization: `Bearer ${stack.adminToken}`,
        accept: 'application/json',
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      dispatcher,
    });
    const text = await answer.body.text();
    if (answer.statusCode >= 300)
      throw new Error(`${method} ${path}: ${answer.statusCode} ${text.slice(0, 200)}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return {
    stack,
    url: stack.url,
    token: stack.adminToken,
    dispatcher,
    get: (path) => send('GET', path),
    getRaw: async (path) => {
      const answer = await request(`${stack.url}${path}`, {
        headers: { authorization: `Bearer ${stack.adminToken}` },
        dispatcher,
      });
      const bytes = Buffer.from(await answer.body.arrayBuffer());
      if (answer.statusCode >= 300) throw new Error(`GET ${path}: ${answer.statusCode}`);
      return bytes;
    },
    send,
  };
}

export async function stopWoodpecker(woodpecker: Woodpecker): Promise<void> {
  await woodpecker.dispatcher.close();
  await woodpecker.stack.stop();
}

/** A repository at the forge stand-in, activated in Woodpecker, with these steps as its pipeline. */
export async function createRepo(
  woodpecker: Woodpecker,
  name: string,
  steps: { name: string; commands: string[] }[],
): Promise<number> {
  const yaml = stringify({
    when: [{ event: ['push', 'manual'] }],
    skip_clone: true,
    steps: steps.map((step) => ({ name: step.name, image: 'sh', commands: step.commands })),
  });
  const created = await fetch(`${woodpecker.stack.forgeUrl}/_harness/repos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      owner: woodpecker.stack.adminLogin,
      name,
      defaultBranch: 'main',
      branches: [],
      private: false,
      files: { '.woodpecker.yaml': yaml },
    }),
  });
  const { forgeRemoteId } = (await created.json()) as { forgeRemoteId: number };
  const activated = (await woodpecker.send(
    'POST',
    `/api/repos?forge_remote_id=${forgeRemoteId}`,
  )) as { id: number };
  return activated.id;
}

export interface FinishedPipeline {
  readonly number: number;
  readonly status: string;
  readonly steps: { id: number; name: string }[];
}

/** Starts a manual pipeline on main and waits until it has settled. */
export async function runPipeline(
  woodpecker: Woodpecker,
  repoId: number,
  timeoutMs = 300_000,
): Promise<FinishedPipeline> {
  const { number } = (await woodpecker.send('POST', `/api/repos/${repoId}/pipelines`, {
    branch: 'main',
  })) as { number: number };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pipeline = (await woodpecker.get(`/api/repos/${repoId}/pipelines/${number}`)) as {
      status: string;
      workflows?: { children?: { id: number; name: string }[] }[];
    };
    if (['success', 'failure', 'error', 'killed'].includes(pipeline.status)) {
      return {
        number,
        status: pipeline.status,
        steps: (pipeline.workflows ?? []).flatMap((workflow) => workflow.children ?? []),
      };
    }
    if (Date.now() > deadline)
      throw new Error(
        `pipeline ${number} did not finish within ${timeoutMs / 1000} s (status ${pipeline.status})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// Answers a model reads, captured from the real Woodpecker: for the most used read tools,
// Woodpecker's own answer and the server's. The server's answer must be exactly what the
// output step makes of Woodpecker's (so bench/answerCost.ts, which measures the checked-in
// captures offline, measures the server); the checked-in captures must have the fields
// Woodpecker answers with today (a release that adds, renames or drops one fails here).
// CAPTURE_ANSWERS=1 rewrites test/answers/captured.json; docs/performance.md and
// docs/tools.md are then regenerated from it (npm run generate, the answer-cost test).
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CAPTURED_ANSWERS,
  loadCaptured,
  resultFor,
  type CapturedAnswer,
} from '../../bench/answerCost.js';
import { tools } from '../../generated/index.js';
import { redact } from '../../runtime/output/answer.js';
import {
  adminApi,
  createRepo,
  harnessInfo,
  offlinePipelineYaml,
  pushCommit,
  pushWebhook,
  setRepoFiles,
  stepNamed,
  waitForLogLine,
  waitForPipelineStatus,
  type TestRepo,
} from '../harness/fixtures.js';
import { withSession } from './mcpSession.js';

const PASSING = offlinePipelineYaml([
  { name: 'build', commands: ['echo built'] },
  { name: 'test', commands: ['echo "ok parser"'] },
]);
const FAILING = offlinePipelineYaml([
  { name: 'build', commands: ['echo built'] },
  {
    name: 'test',
    commands: ['echo "checking parser"', 'echo "FAIL: parser rejects empty input"', 'exit 2'],
  },
]);

interface Planned {
  readonly key: string;
  readonly tool: string;
  readonly label: string;
  readonly args: Record<string, unknown>;
  /** Woodpecker's route for the same data; absent for a handler tool. */
  readonly route?: string;
}

let repo: TestRepo;
let failedNumber = 0;
let failedStepId = 0;
let cronId = 0;
let agentId = 0;
let pipelines = 0;

async function push(
  message: string,
  files: string,
  status: 'success' | 'failure',
): Promise<number> {
  await setRepoFiles(repo, { '.woodpecker.yaml': files });
  const sha = await pushCommit(repo, 'main');
  const delivered = await pushWebhook(repo, {
    branch: 'main',
    sha,
    message,
    changedFiles: ['parser.go'],
  });
  const number = (delivered.body as { number: number }).number;
  await waitForPipelineStatus(repo.repoId, number, [status], 120_000);
  pipelines++;
  return number;
}

beforeAll(async () => {
  repo = await createRepo({ files: { '.woodpecker.yaml': PASSING } });
  await push('Add the parser', PASSING, 'success');
  await push('Parse empty input', FAILING, 'failure');
  await push('Handle empty input', PASSING, 'success');
  failedNumber = await push('Reject blank lines', FAILING, 'failure');
  const api = adminApi();
  failedStepId = stepNamed(
    await api.get(`/api/repos/${repo.repoId}/pipelines/${failedNumber}`),
    'test',
  ).id;
  // Woodpecker writes a step's log after the pipeline reports its status: wait for the
  // last line, or the captured log would (sometimes) be empty.
  await waitForLogLine(
    repo.repoId,
    failedNumber,
    failedStepId,
    'FAIL: parser rejects empty input',
    60_000,
  );
  await api.post(`/api/repos/${repo.repoId}/secrets`, {
    name: 'deploy_key',
    value: 'captured-answers-secret-value',
    events: ['push', 'tag'],
  });
  await api.post(`/api/repos/${repo.repoId}/registries`, {
    address: 'registry.example.com',
    username: 'ci-bot',
    password: 'captured-answers-registry-password',
  });
  cronId = (
    await api.post<{ id: number }>(`/api/repos/${repo.repoId}/cron`, {
      name: 'nightly',
      schedule: '0 3 * * *',
      branch: 'main',
    })
  ).id;
  agentId = ((await api.get<{ id: number }[]>('/api/agents')) ?? [])[0]?.id ?? 0;
}, 600_000);

function plan(): Planned[] {
  const r = repo.repoId;
  const secretArgs = { scope: 'repository', repo_id: r };
  return [
    {
      key: 'list_repositories',
      tool: 'list_repositories',
      label: '1 repository',
      args: { name: repo.name },
      route: `/api/user/repos?name=${repo.name}`,
    },
    {
      key: 'get_repository',
      tool: 'get_repository',
      label: 'a repository',
      args: { repo_id: r },
      route: `/api/repos/${r}`,
    },
    {
      key: 'lookup_repository',
      tool: 'lookup_repository',
      label: 'a repository',
      args: { full_name: repo.fullName },
      route: `/api/repos/lookup/${repo.fullName}`,
    },
    {
      key: 'list_pipelines',
      tool: 'list_pipelines',
      label: `${pipelines} pipelines`,
      args: { repo_id: r },
      route: `/api/repos/${r}/pipelines`,
    },
    {
      key: 'get_pipeline:failed',
      tool: 'get_pipeline',
      label: '1 workflow, 3 steps',
      args: { repo_id: r, number: failedNumber },
      route: `/api/repos/${r}/pipelines/${failedNumber}`,
    },
    {
      key: 'get_pipeline:latest',
      tool: 'get_pipeline',
      label: 'task: latest',
      args: { repo_id: r, number: 'latest' },
      route: `/api/repos/${r}/pipelines/latest`,
    },
    {
      key: 'get_step_logs:failed',
      tool: 'get_step_logs',
      label: 'task: a failed step',
      args: { repo_id: r, number: failedNumber, step_id: failedStepId },
    },
    {
      key: 'list_secrets',
      tool: 'list_secrets',
      label: '1 secret',
      args: secretArgs,
      route: `/api/repos/${r}/secrets`,
    },
    {
      key: 'get_secret',
      tool: 'get_secret',
      label: 'a secret',
      args: { ...secretArgs, name: 'deploy_key' },
      route: `/api/repos/${r}/secrets/deploy_key`,
    },
    {
      key: 'list_registries',
      tool: 'list_registries',
      label: '1 registry',
      args: secretArgs,
      route: `/api/repos/${r}/registries`,
    },
    {
      key: 'get_registry',
      tool: 'get_registry',
      label: 'a registry',
      args: { ...secretArgs, address: 'registry.example.com' },
      route: `/api/repos/${r}/registries/registry.example.com`,
    },
    {
      key: 'list_crons',
      tool: 'list_crons',
      label: '1 cron',
      args: { repo_id: r },
      route: `/api/repos/${r}/cron`,
    },
    {
      key: 'get_cron',
      tool: 'get_cron',
      label: 'a cron',
      args: { repo_id: r, cron_id: cronId },
      route: `/api/repos/${r}/cron/${cronId}`,
    },
    {
      key: 'list_agents',
      tool: 'list_agents',
      label: 'the agents',
      args: {},
      route: '/api/agents',
    },
    {
      key: 'get_agent',
      tool: 'get_agent',
      label: 'an agent',
      args: { agent_id: agentId },
      route: `/api/agents/${agentId}`,
    },
    {
      key: 'get_current_user',
      tool: 'get_current_user',
      label: 'the account',
      args: {},
      route: '/api/user',
    },
    {
      key: 'lookup_organization',
      tool: 'lookup_organization',
      label: 'an organization',
      args: { name: repo.owner },
      route: `/api/orgs/lookup/${repo.owner}`,
    },
  ];
}

/** Every key path of a JSON value, list entries merged: the shape a release answers with. */
function shapeOf(value: unknown, at = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((entry) => shapeOf(entry, `${at}[]`, into));
  else if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) {
      into.add(`${at}.${key}`);
      shapeOf(child, `${at}.${key}`, into);
    }
  return into;
}

const toolNamed = (name: string) => tools.find((tool) => tool.name === name)!;

describe('answers as a model reads them, on the real Woodpecker', () => {
  it('the server answers with exactly the view of Woodpecker’s answer, and the captures are current', async () => {
    const api = adminApi();
    const captured: CapturedAnswer[] = [];
    await withSession({ revision: '2025-11-25' }, async (session) => {
      for (const planned of plan()) {
        const served = await session.call(planned.tool, planned.args);
        expect(served.isError, `${planned.key}: ${JSON.stringify(served.content)}`).toBeFalsy();
        if (!planned.route) {
          captured.push({
            ...planned,
            result: served.structuredContent as Record<string, unknown>,
          });
          continue;
        }
        const body = redact(await api.get(planned.route), toolNamed(planned.tool).output);
        // Agents' last_contact moves while we look: compare shapes, and values where stable.
        const offline = await resultFor(planned.tool, planned.args, body);
        expect(shapeOf(served.structuredContent), planned.key).toEqual(
          shapeOf(offline.structuredContent),
        );
        if (!planned.tool.includes('agent'))
          expect(served.structuredContent, planned.key).toEqual(offline.structuredContent);
        captured.push({ ...planned, woodpecker: body });
      }
    });
    if (process.env.CAPTURE_ANSWERS === '1') {
      const text = JSON.stringify(
        { woodpeckerVersion: harnessInfo().version, answers: captured },
        null,
        1,
      );
      for (const secret of ['captured-answers-secret-value', 'captured-answers-registry-password'])
        expect(text).not.toContain(secret);
      writeFileSync(CAPTURED_ANSWERS, `${text}\n`);
      return;
    }
    const checkedIn = loadCaptured();
    // The captures are the pinned release's answers; other releases answer with other fields
    // (3.11 has no config_extension_*), so only a run on the captured release holds the
    // shapes to the file. Every release still got the view check above.
    if (harnessInfo().version !== checkedIn.woodpeckerVersion) return;
    for (const answer of captured) {
      const before = checkedIn.answers.find((a) => a.key === answer.key);
      expect(
        before,
        `${answer.key} is not in ${CAPTURED_ANSWERS}; run with CAPTURE_ANSWERS=1`,
      ).toBeDefined();
      expect(
        shapeOf(answer.woodpecker ?? answer.result),
        `${answer.key}: Woodpecker's answer changed shape since ${CAPTURED_ANSWERS} was captured; run with CAPTURE_ANSWERS=1 and review the views`,
      ).toEqual(shapeOf(before!.woodpecker ?? before!.result));
    }
  }, 600_000);
});

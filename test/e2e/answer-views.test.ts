// Answers a model reads, captured from the real Woodpecker: for every read tool,
// Woodpecker's own answer and the server's (for a handler tool, its result). The server's
// answer must be exactly what the output step makes of Woodpecker's (so bench/answerCost.ts,
// which measures the checked-in captures offline, measures the server); the checked-in
// captures must have the fields Woodpecker answers with today (a release that adds, renames
// or drops one fails here). docs/tools.md shows each tool's first captured answer.
// CAPTURE_ANSWERS=1 rewrites test/answers/captured.json; docs/performance.md and
// docs/tools.md are then regenerated from it (npm run generate, the answer-cost test).
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  pullRequestWebhook,
  pushCommit,
  pushWebhook,
  setRepoFiles,
  stepNamed,
  waitForLogLine,
  waitForPipelineStatus,
  serverOlderThan,
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
  /** A handler tool's answer that one Woodpecker route also serves: that route. */
  readonly sameDataRoute?: string;
}

/** A workflow file with a misspelt key, a step without an image and a dependency on no step. */
const LINT_EXAMPLE = [
  'when:',
  '  event: push',
  'steps:',
  '  build:',
  '    image: golang',
  '    comands: [go build]',
  '  test:',
  '    commands: [go test]',
  '    depends_on: [biuld]',
  '',
].join('\n');

/**
 * A pipeline that runs while the answers are captured, so the agent has a task to show and
 * a running step has a log to follow: a first line, then more three seconds later.
 */
const RUNNING = offlinePipelineYaml([
  {
    name: 'integration',
    commands: [
      'echo "integration: start"',
      'sleep 3',
      'echo "integration: tests 1-40 passed"',
      'sleep 60',
    ],
  },
]);

// Fails in the repository's first pipeline and passes in any later one: a failure that a
// restart of the same commit turns green ($$ is Woodpecker's escape for $).
const FLAKY = offlinePipelineYaml([
  { name: 'build', commands: ['echo built'] },
  {
    name: 'e2e',
    commands: [
      'echo "running the e2e suite"',
      'test "$$CI_PIPELINE_NUMBER" != 1 || { echo "FAIL: checkout page timed out"; exit 1; }',
    ],
  },
]);
/** A step that ends as a container backend reports SIGKILL (an OOM kill): exit code 137. */
const KILLED = offlinePipelineYaml([
  { name: 'test', commands: ['echo "running tests"', 'exit 137'] },
]);

/**
 * Read tools whose answer the harness cannot produce, and why (docs/tools.md says so in
 * their place; test/unit/output/answerCost.test.ts fails for a read tool with neither).
 */
const UNANSWERED: Readonly<Record<string, string>> = {
  list_organizations:
    'Woodpecker lists only organizations (not personal accounts), and the test harness’s forge has none, so its answer there is an empty list.',
};

let repo: TestRepo;
/** A second repository: a pull request, and the pipeline that runs during the capture. */
let side: TestRepo;
let runningNumber = 0;
let greenNumber = 0;
let failedNumber = 0;
let failedStepId = 0;
let failedStepPid = 0;
let cronId = 0;
let agentId = 0;
let orgId = 0;
let pipelines = 0;
/** The running step, and the line a first read of it said to ask for next. */
let runningStepId = 0;
let followFrom = 0;
/** A failed pipeline whose commit passed when restarted, and that restart. */
let flaky: TestRepo;
let flakyFailed = 0;
/** A failed pipeline whose step ended with exit code 137. */
let killed: TestRepo;
let killedNumber = 0;

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
  repo = await createRepo({ files: { '.woodpecker.yaml': PASSING }, branches: ['release-1'] });
  await push('Add the parser', PASSING, 'success');
  await push('Parse empty input', FAILING, 'failure');
  greenNumber = await push('Handle empty input', PASSING, 'success');
  failedNumber = await push('Reject blank lines', FAILING, 'failure');
  const api = adminApi();
  const failedStep = stepNamed(
    await api.get(`/api/repos/${repo.repoId}/pipelines/${failedNumber}`),
    'test',
  );
  failedStepId = failedStep.id;
  failedStepPid = failedStep.pid;
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
      // As create_cron asks (3.15+ would store it switched off); 3.11 ignores it.
      enabled: true,
    })
  ).id;
  agentId = ((await api.get<{ id: number }[]>('/api/agents')) ?? [])[0]?.id ?? 0;
  orgId = (await api.get<{ org_id: number }>(`/api/repos/${repo.repoId}`)).org_id;

  side = await createRepo();
  const opened = await pullRequestWebhook(side, { number: 7, title: 'Reject blank lines early' });
  await waitForPipelineStatus(
    side.repoId,
    (opened.body as { number: number }).number,
    ['success'],
    120_000,
  );
  await setRepoFiles(side, { '.woodpecker.yaml': RUNNING });
  runningNumber = (
    await api.post<{ number: number }>(`/api/repos/${side.repoId}/pipelines`, { branch: 'main' })
  ).number;
  await waitForPipelineStatus(side.repoId, runningNumber, ['running'], 120_000);
  runningStepId = stepNamed(
    await api.get(`/api/repos/${side.repoId}/pipelines/${runningNumber}`),
    'integration',
  ).id;
  // A first read of the running step's log: what it had then is where the follow starts.
  followFrom = (
    await waitForLogLine(side.repoId, runningNumber, runningStepId, 'integration: start', 60_000)
  ).length;
  await waitForLogLine(
    side.repoId,
    runningNumber,
    runningStepId,
    'integration: tests 1-40 passed',
    30_000,
  );
}, 600_000);

// Cancelled where that is safe, which saves the minute its step sleeps; on 3.11 cancelling
// a running step kills the local agent (tools-pipelines.test.ts), so there it runs out.
afterAll(async () => {
  if (!runningNumber) return;
  if (serverOlderThan('3.17.0')) {
    await waitForPipelineStatus(side.repoId, runningNumber, ['success'], 180_000);
    return;
  }
  await adminApi().post(`/api/repos/${side.repoId}/pipelines/${runningNumber}/cancel`);
  await waitForPipelineStatus(side.repoId, runningNumber, ['killed', 'canceled'], 60_000);
}, 200_000);

/**
 * Pipelines of repositories of their own for the answers captured last, made only after
 * the others are captured: earlier, they would show in the feed, the queue and the lists.
 */
async function prepareLater(): Promise<void> {
  const api = adminApi();
  flaky = await createRepo({ files: { '.woodpecker.yaml': FLAKY } });
  const flakySha = await pushCommit(flaky, 'main');
  flakyFailed = (
    (await pushWebhook(flaky, { branch: 'main', sha: flakySha, message: 'Add the e2e suite' }))
      .body as { number: number }
  ).number;
  await waitForPipelineStatus(flaky.repoId, flakyFailed, ['failure'], 120_000);
  const again = await api.post<{ number: number }>(
    `/api/repos/${flaky.repoId}/pipelines/${flakyFailed}`,
  );
  await waitForPipelineStatus(flaky.repoId, again.number, ['success'], 120_000);

  killed = await createRepo({ files: { '.woodpecker.yaml': KILLED } });
  killedNumber = (
    await api.post<{ number: number }>(`/api/repos/${killed.repoId}/pipelines`, {
      branch: 'main',
    })
  ).number;
  await waitForPipelineStatus(killed.repoId, killedNumber, ['failure'], 120_000);
}

function plan(): Planned[] {
  const r = repo.repoId;
  const secretArgs = { scope: 'repository', repo_id: r };
  const { url, adminLogin } = harnessInfo();
  return [
    // First, while the side repository's pipeline still runs.
    {
      key: 'list_agent_tasks',
      tool: 'list_agent_tasks',
      label: 'a running task',
      args: { agent_id: agentId },
      route: `/api/agents/${agentId}/tasks`,
    },
    {
      key: 'list_queued_pipelines',
      tool: 'list_queued_pipelines',
      label: '1 running pipeline',
      args: {},
      route: '/api/pipelines',
    },
    {
      key: 'get_pipeline_feed',
      tool: 'get_pipeline_feed',
      label: 'the feed',
      args: {},
      route: '/api/user/feed',
    },
    {
      key: 'get_queue_info',
      tool: 'get_queue_info',
      label: 'the queue',
      args: {},
      route: '/api/queue/info',
    },
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
      key: 'get_step_logs',
      tool: 'get_step_logs',
      label: 'a failed step',
      args: { repo_id: r, number: failedNumber, step_id: failedStepId },
      sameDataRoute: `/api/repos/${r}/logs/${failedNumber}/${failedStepId}`,
    },
    {
      key: 'get_step_logs:from-line',
      tool: 'get_step_logs',
      label: 'from a line',
      args: { repo_id: r, number: failedNumber, step_id: failedStepId, from: '2', limit: 2 },
    },
    {
      key: 'get_step_logs:follow',
      tool: 'get_step_logs',
      label: 'following a running step',
      args: {
        repo_id: side.repoId,
        number: runningNumber,
        step_id: runningStepId,
        from: String(followFrom),
      },
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
    {
      key: 'get_repository_permissions',
      tool: 'get_repository_permissions',
      label: 'the permissions',
      args: { repo_id: r },
      route: `/api/repos/${r}/permissions`,
    },
    {
      key: 'list_repository_branches',
      tool: 'list_repository_branches',
      label: '2 branches',
      args: { repo_id: r },
      route: `/api/repos/${r}/branches`,
    },
    {
      key: 'list_pull_requests',
      tool: 'list_pull_requests',
      label: '1 pull request',
      args: { repo_id: side.repoId },
      route: `/api/repos/${side.repoId}/pull_requests`,
    },
    {
      key: 'get_pipeline_metadata',
      tool: 'get_pipeline_metadata',
      label: 'a failed pipeline',
      args: { repo_id: r, number: failedNumber },
      route: `/api/repos/${r}/pipelines/${failedNumber}/metadata`,
    },
    {
      key: 'get_pipeline_config',
      tool: 'get_pipeline_config',
      label: 'a failed pipeline',
      args: { repo_id: r, number: failedNumber },
    },
    {
      key: 'lint_pipeline_config',
      tool: 'lint_pipeline_config',
      label: 'a config with a typo',
      args: { config: LINT_EXAMPLE },
    },
    {
      key: 'search_logs',
      tool: 'search_logs',
      label: 'a failed pipeline',
      args: { repo_id: r, number: failedNumber, pattern: 'FAIL' },
    },
    {
      key: 'get_pipeline_failure',
      tool: 'get_pipeline_failure',
      label: 'a failed pipeline',
      args: { repo_id: r, number: failedNumber },
    },
    {
      key: 'compare_pipelines',
      tool: 'compare_pipelines',
      label: 'against the last green',
      args: { repo_id: r, number: failedNumber, other: greenNumber },
    },
    {
      key: 'wait_for_pipeline',
      tool: 'wait_for_pipeline',
      label: 'a finished pipeline',
      args: { repo_id: r, number: failedNumber },
    },
    {
      key: 'resolve_link',
      tool: 'resolve_link',
      label: 'a step page',
      args: { link: `${url}/repos/${r}/pipeline/${failedNumber}/${failedStepPid}` },
    },
    {
      key: 'get_organization',
      tool: 'get_organization',
      label: 'an organization',
      args: { org_id: orgId },
      route: `/api/orgs/${orgId}`,
    },
    {
      key: 'get_organization_permissions',
      tool: 'get_organization_permissions',
      label: 'the permissions',
      args: { org_id: orgId },
      route: `/api/orgs/${orgId}/permissions`,
    },
    {
      key: 'list_users',
      tool: 'list_users',
      label: 'the users',
      args: {},
      route: '/api/users',
    },
    {
      key: 'get_user',
      tool: 'get_user',
      label: 'a user',
      args: { login: adminLogin, forge_id: 1 },
      route: `/api/users/${adminLogin}?forge_id=1`,
    },
    {
      key: 'list_forges',
      tool: 'list_forges',
      label: 'the forges',
      args: {},
      route: '/api/forges',
    },
    {
      key: 'get_forge',
      tool: 'get_forge',
      label: 'a forge',
      args: { forge_id: 1 },
      route: '/api/forges/1',
    },
    {
      key: 'get_server_info',
      tool: 'get_server_info',
      label: 'the server',
      args: {},
    },
    {
      key: 'get_log_level',
      tool: 'get_log_level',
      label: 'the log level',
      args: {},
      route: '/api/log-level',
    },
  ];
}

/** Captured after prepareLater: answers about the pipelines it made, restarts last. */
function laterPlan(): Planned[] {
  const r = repo.repoId;
  return [
    {
      key: 'get_pipeline_failure:passed-later',
      tool: 'get_pipeline_failure',
      label: 'a failure a later attempt passed',
      args: { repo_id: flaky.repoId, number: flakyFailed },
    },
    // Restarts last, the accepted one at the very end: it starts a pipeline.
    {
      key: 'restart_pipeline:dry-run',
      tool: 'restart_pipeline',
      label: 'a dry run',
      args: { repo_id: r, number: failedNumber, dry_run: true },
    },
    {
      key: 'restart_pipeline:not-infrastructure',
      tool: 'restart_pipeline',
      label: 'only_if_infrastructure, the code failed',
      args: { repo_id: r, number: failedNumber, only_if_infrastructure: true },
    },
    {
      key: 'restart_pipeline:infrastructure-dry-run',
      tool: 'restart_pipeline',
      label: 'only_if_infrastructure, a dry run, exit 137',
      args: {
        repo_id: killed.repoId,
        number: killedNumber,
        only_if_infrastructure: true,
        dry_run: true,
      },
    },
    {
      key: 'restart_pipeline:infrastructure',
      tool: 'restart_pipeline',
      label: 'only_if_infrastructure, exit 137',
      args: { repo_id: killed.repoId, number: killedNumber, only_if_infrastructure: true },
    },
  ];
}

async function* everyPlanned(): AsyncGenerator<Planned> {
  yield* plan();
  await prepareLater();
  yield* laterPlan();
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

/** Tools whose answers change between two looks (times of contact, queue counts). */
const MOVING = new Set(['list_agents', 'get_agent', 'list_agent_tasks', 'get_queue_info']);

const toolNamed = (name: string) => tools.find((tool) => tool.name === name)!;

describe('answers as a model reads them, on the real Woodpecker', () => {
  it('the server answers with exactly the view of Woodpecker’s answer, and the captures are current', async () => {
    const api = adminApi();
    const captured: CapturedAnswer[] = [];
    await withSession({ revision: '2025-11-25' }, async (session) => {
      for await (const planned of everyPlanned()) {
        const served = await session.call(planned.tool, planned.args);
        expect(served.isError, `${planned.key}: ${JSON.stringify(served.content)}`).toBeFalsy();
        if (!planned.route) {
          // What the model reads is the text block: the result's JSON, nothing else.
          expect(served.content?.[0], planned.key).toEqual({
            type: 'text',
            text: JSON.stringify(served.structuredContent),
          });
          const { sameDataRoute, ...rest } = planned;
          captured.push({
            ...rest,
            result: served.structuredContent as Record<string, unknown>,
            ...(sameDataRoute ? { woodpeckerSameData: await api.get(sameDataRoute) } : {}),
          });
          continue;
        }
        const body = redact(await api.get(planned.route), toolNamed(planned.tool).output);
        // Agents' last_contact and the queue's counts move while we look: compare shapes,
        // and values where stable.
        const offline = await resultFor(planned.tool, planned.args, body);
        expect(shapeOf(served.structuredContent), planned.key).toEqual(
          shapeOf(offline.structuredContent),
        );
        if (!MOVING.has(planned.tool))
          expect(served.structuredContent, planned.key).toEqual(offline.structuredContent);
        captured.push({ ...planned, woodpecker: body });
      }
    });
    if (process.env.CAPTURE_ANSWERS === '1') {
      const text = JSON.stringify(
        { woodpeckerVersion: harnessInfo().version, answers: captured, unanswered: UNANSWERED },
        null,
        1,
      );
      const { adminToken, userToken } = harnessInfo();
      const agentToken = (await api.get<{ token: string }>(`/api/agents/${agentId}`)).token;
      for (const secret of [
        'captured-answers-secret-value',
        'captured-answers-registry-password',
        adminToken,
        userToken,
        agentToken,
      ].filter(Boolean))
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

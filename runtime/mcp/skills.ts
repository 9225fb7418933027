// The three prompts' guidance as skills (the io.modelcontextprotocol/skills extension,
// SEP-2640, from the SDK's @modelcontextprotocol/server/ext/skills): a client that declared
// the extension can list them and load one when a person asks "why did it fail?", "is it
// flaky?" or "should I approve this?". A skill is guidance only, which tools to call and
// how to read what they return: it adds no tool, so the tool list stays as it is, and it
// gathers nothing itself (the prompts do, for clients that pick them from a menu). A
// client that did not declare the extension lists no skill.
import type { ClientCapabilities, McpServer, ServerContext } from '@modelcontextprotocol/server';
import {
  SKILLS_EXTENSION_ID,
  SkillsExtension,
  skillEntry,
  type Skill,
} from '@modelcontextprotocol/server/ext/skills';
import { DATA_RULE } from './prompts.js';

const PREFIX = 'woodpecker-ci-mcp';

/** Each skill's SKILL.md, by folder name (the prompt it mirrors). */
const SKILLS: Readonly<Record<string, { description: string; body: string }>> = {
  'diagnose-pipeline': {
    description:
      'Why did a Woodpecker pipeline fail, and what changed since it last passed? Use for a red pipeline or a pasted Woodpecker link.',
    body: [
      '# Diagnose a failed pipeline',
      'A pasted address: resolve_link gives repo_id and number. Then call get_pipeline_failure: the failed steps with exit codes and log tails, since_green (the pipelines, commits, authors and changed files since the last green run of the branch and event, and the steps that fail now but passed then) and flaky.',
      'If the summary says a later attempt of the same commit passed, the failure already went green: say so before anything else.',
      'Say which step failed and the most likely cause, which change most likely introduced it (pipeline, commit, author, file) and how sure you are, and the next thing to check or fix. When the tail is not enough: search_logs, or get_step_logs from a line.',
    ].join('\n\n'),
  },
  'flaky-or-changed': {
    description:
      'Is a failing Woodpecker pipeline flaky, the machine, or a change? Use before restarting a pipeline or blaming a commit.',
    body: [
      '# Is it flaky, or what changed?',
      'Call get_pipeline_failure (its flaky section: recent outcomes of the branch and event, commits that failed and then passed when run again, the failed steps in earlier pipelines, failures per agent) and compare_pipelines against the last green run.',
      'Flaky if the same commit both failed and passed, or the step fails on and off without related changes; the machine if failures gather on one agent or the steps died by a signal (restart_pipeline with only_if_infrastructure and dry_run says whether it counts as one); a change if the step fails since a pipeline whose commits, files or config touch it. Give the pipeline numbers behind each claim and never call it flaky without them.',
    ].join('\n\n'),
  },
  'review-approval': {
    description:
      'Help a person decide on a Woodpecker pipeline that waits for approval (a fork, an outside contributor). Use before approve_pipeline.',
    body: [
      '# Review a pipeline waiting for approval',
      'Do not approve it yourself: approve_pipeline asks the person, and only they decide. Read get_pipeline (status must be blocked; author, sender, from_fork), get_pipeline_config (what it would run), get_repository and list_secrets at each level (which secrets its event could reach, and the images they are limited to).',
      'Tell the person who opened it and whether it comes from a fork; what its config would do when it runs (images, commands, plugins, services, privileged settings, volumes, network access, anything that sends data out); which secrets it could reach; what could go wrong. End with approve or decline, and why. lint_pipeline_config checks the config as this Woodpecker would.',
    ].join('\n\n'),
  },
};

let entries: Promise<readonly (readonly [string, Skill, string])[]> | undefined;

/** The skills' entries (digests, sizes), built once, on the first skills request. */
function skillEntries() {
  entries ??= Promise.all(
    Object.entries(SKILLS).map(async ([name, { description, body }]) => {
      const text = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${body}\n\n${DATA_RULE}\n`;
      const skill = await skillEntry(`${PREFIX}/${name}`, { 'SKILL.md': text });
      return [name, skill, text] as const;
    }),
  );
  return entries;
}

function declaresSkills(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return extensions?.[SKILLS_EXTENSION_ID] !== undefined;
}

/**
 * Serves the skills on `server`, to a client that declared the extension: `capabilitiesOf`
 * says what this request's client declared (per request on 2026-07-28, per session before).
 */
export function registerSkills(
  server: McpServer,
  capabilitiesOf: (ctx: ServerContext) => ClientCapabilities | undefined,
): void {
  const served = (ctx: ServerContext) => declaresSkills(capabilitiesOf(ctx));
  new SkillsExtension({
    source: {
      list: async (_params, ctx) => ({
        skills: served(ctx) ? (await skillEntries()).map(([, skill]) => skill) : [],
      }),
      get: async (uri, ctx) =>
        served(ctx)
          ? (await skillEntries()).find(([, skill]) => skill.uri === uri)?.[1]
          : undefined,
      read: async (uri, ctx) => {
        if (!served(ctx)) return undefined;
        const found = (await skillEntries()).find(([, skill]) => skill.uri === uri);
        return found ? { text: found[2], mimeType: 'text/markdown' } : undefined;
      },
    },
  }).attach(server);
}

// Stage 4f: docs/tools.md, written for a person deciding which tools to allow: first
// the whole surface in one table, then each tool with what it asks and when.
import { HTTP_URL_PATTERN } from '../../runtime/core/httpUrl.js';
import { formatMarkdown } from '../format.js';
import { markdownHeader, type Inputs } from '../header.js';
import type { ParamModel, ToolModel } from '../model.js';
import type { AnswerExample } from './answerExamples.js';
import { INSTRUCTIONS } from '../../runtime/mcp/instructions.js';

const GROUP_ORDER = [
  'repositories',
  'pipelines',
  'logs',
  'secrets',
  'registries',
  'crons',
  'organizations',
  'account',
  'users',
  'agents',
  'forges',
  'server',
  'insight',
];

const GROUP_TITLES: Readonly<Record<string, string>> = {
  repositories: 'Repositories',
  pipelines: 'Pipelines',
  logs: 'Logs',
  secrets: 'Secrets',
  registries: 'Registries',
  crons: 'Cron jobs',
  organizations: 'Organizations',
  account: 'The account',
  users: 'Users',
  agents: 'Agents',
  forges: 'Forges',
  server: 'Server and queue',
  insight: 'Insight',
};

const yes = (value: boolean): string => (value ? 'yes' : '–');

export function emitDocs(
  tools: readonly ToolModel[],
  inputs: Inputs,
  examples: ReadonlyMap<string, AnswerExample> = new Map(),
): Promise<string> {
  const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
  const groups = GROUP_ORDER.map((group) => ({
    group,
    tools: tools.filter((tool) => tool.group === group),
  })).filter((entry) => entry.tools.length > 0);
  const readOnly = tools.filter((tool) => tool.annotations.readOnlyHint).length;
  const guarded = tools.filter((tool) => tool.guard).length;
  const out: string[] = [
    markdownHeader(inputs),
    '# Tools',
    '',
    `${tools.length} tools: ${readOnly} read-only, ${tools.length - readOnly} that write, ${guarded} of which ask a person first (guarded).`,
    `This page is generated from \`${inputs.manifest}\`; every value below is stated there explicitly, none is a default.`,
    '',
    'How to read the columns:',
    '',
    '- **read-only**, **destructive**, **idempotent**, **open-world**: the four MCP tool annotations. They are hints a client may use to decide what to allow; they do not enforce anything.',
    '- **asks a person**: the guard, which this server enforces itself. A guarded call does nothing until a person answers a dialog (or, without a dialog, until the call is repeated with the token the first call returned).',
    '- **admin**: needs a Woodpecker instance admin; a token of another account does not see it in its tool list (`WOODPECKER_HIDE_ADMIN_TOOLS`), and Woodpecker answers it with 403.',
    '',
    'Each section below is a toolset: its name in parentheses is what `WOODPECKER_ALLOW_TOOLS` and `WOODPECKER_DENY_TOOLS` accept. A tool\'s first paragraph is its description as the tool list sends it to the model; "In detail" is for people and is never sent. Parameter types show every check made on a call; the tool list shows a shorter schema (docs/configuration.md, "What the tool list costs").',
    '',
    'The descriptions lean on what the server tells a model once, when it connects (its MCP `instructions`), which includes how to read every answer:',
    '',
    ...INSTRUCTIONS.split(/(?<=\.) (?=[A-Z])/).map((sentence) => `> ${sentence}`),
    '',
    '| tool | read-only | destructive | idempotent | open-world | asks a person | admin |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const { tools: inGroup } of groups) {
    for (const tool of inGroup) {
      const a = tool.annotations;
      out.push(
        `| [${tool.name}](#${tool.name}) | ${yes(a.readOnlyHint)} | ${yes(a.destructiveHint)} | ${yes(a.idempotentHint)} | ${yes(a.openWorldHint)} | ${tool.guard ? cell(tool.guard.condition) : 'never'} | ${yes(tool.adminOnly)} |`,
      );
    }
  }
  for (const { group, tools: inGroup } of groups) {
    out.push('', `## ${GROUP_TITLES[group] ?? group} (\`${group}\`)`);
    for (const tool of inGroup) out.push('', ...toolSection(tool, examples.get(tool.name), byName));
  }
  out.push('');
  return formatMarkdown(out.join('\n'));
}

function toolSection(
  tool: ToolModel,
  example: AnswerExample | undefined,
  byName: ReadonlyMap<string, ToolModel>,
): string[] {
  const a = tool.annotations;
  const lines = [
    `### ${tool.name}`,
    '',
    `**${tool.title}**${tool.adminOnly ? ' (instance admin)' : ''}${tool.worksWithoutToken ? ' · works without a token' : ''}${tool.essential ? ' · in the `essential` preset' : ''}`,
    '',
    tool.description,
    '',
  ];
  if (tool.details) lines.push(`In detail: ${tool.details}`, '');
  lines.push(
    ...(tool.availableSince === undefined
      ? []
      : [`Needs Woodpecker ${tool.availableSince} or newer; older servers do not list it.`, '']),
    `Annotations: readOnlyHint ${a.readOnlyHint}, destructiveHint ${a.destructiveHint}, idempotentHint ${a.idempotentHint}, openWorldHint ${a.openWorldHint}.`,
    '',
  );
  if (tool.params.length === 0) lines.push('Parameters: none.', '');
  else {
    lines.push('| parameter | type | required | description |', '|---|---|---|---|');
    for (const param of tool.params) {
      const implied = tool.impliedBeforeSince[param.name];
      const older =
        implied === undefined
          ? ''
          : ` (older releases accept only ${JSON.stringify(implied)}, what they do anyway)`;
      const since =
        tool.since[param.name] === undefined
          ? ''
          : ` Needs Woodpecker ${tool.since[param.name]} or newer${older}.`;
      lines.push(
        `| \`${param.name}\` | ${typeCell(tool, param)} | ${param.required ? 'yes' : '–'} | ${cell(param.description)}${since} |`,
      );
    }
    lines.push('');
  }
  const reads = tool.readsFirst.flatMap((name) =>
    (byName.get(name)?.calls ?? []).map(
      (call) => `- \`${call.method} ${call.fullPath}\` (${name}'s, read first)`,
    ),
  );
  if (tool.calls.length > 0) {
    lines.push(reads.length > 0 ? 'Woodpecker calls, in this order:' : 'Woodpecker call:', '');
    lines.push(...reads);
    for (const call of tool.calls) {
      const when = call.when
        .map((c) => ('present' in c ? `${c.param} is given` : `${c.param} = ${String(c.value)}`))
        .join(', ');
      lines.push(`- \`${call.method} ${call.fullPath}\`${when ? ` when ${when}` : ''}`);
    }
    lines.push('');
  }
  if (example && 'unanswered' in example)
    lines.push(`No real answer is shown: ${example.unanswered}`, '');
  else if (example)
    lines.push(
      `A real answer as the model reads it (Woodpecker ${example.woodpeckerVersion}, the test harness):`,
      '',
      '```text',
      example.text,
      '```',
      '',
      ...example.more.flatMap(({ label, text }) => [
        `Another (${label}):`,
        '',
        '```text',
        text,
        '```',
        '',
      ]),
    );
  if (tool.handler)
    lines.push(`Runs the hand-written handler \`runtime/handlers/${tool.handler}.ts\`.`, '');
  if (tool.app)
    lines.push(
      `Hosts that render MCP Apps views show the answer in the \`${tool.app}\` view (docs/clients.md).`,
      '',
    );
  if (tool.output.untrusted)
    lines.push(
      'The answer carries text written by whoever can push to the repository; it is marked untrusted.',
      '',
    );
  if (tool.output.reveal.length > 0)
    lines.push(`Returns, unredacted: ${tool.output.reveal.map((f) => `\`${f}\``).join(', ')}.`, '');
  const allowlist = allowlistSentence(tool);
  if (allowlist) lines.push(allowlist, '');
  if (!tool.guard) lines.push('Asks a person: never.');
  else {
    lines.push(
      `Asks a person: **${tool.guard.condition}**. The approval is bound to ${boundTo(tool.guard.targets, tool.guard.bindBody)}.${tool.guard.read ? ` The current value is read with \`${tool.guard.read.tool}\` first.` : ''}`,
      '',
      'Dialog:',
      '',
      '```text',
      tool.guard.dialog,
      '```',
    );
    if (tool.guard.links) {
      lines.push('', 'The dialog links to the web UI page (WOODPECKER_URL + path):', '');
      for (const link of tool.guard.links) {
        const when = Object.entries(link.when ?? {})
          .map(([param, value]) => `\`${param}\` ${value}: `)
          .join('');
        lines.push(`- ${when}${link.where}, \`${link.path}\``);
      }
    }
  }
  return lines;
}

const REFERENCE_WORDS: Readonly<Record<string, string>> = {
  id: 'a repository id',
  full_name: 'a repository name',
  new_full_name: 'the name it gives',
  forge_remote_id: "the forge's id of a repository",
};

/** What WOODPECKER_REPOS checks on this tool, for an operator reading the catalogue. */
function allowlistSentence(tool: ToolModel): string | undefined {
  const policy = tool.repositories;
  if (!policy) return undefined;
  const checked = Object.entries(policy.args).map(
    ([name, kind]) => `\`${name}\` (${REFERENCE_WORDS[kind] ?? kind})`,
  );
  const parts: string[] = [];
  if (checked.length === 1) parts.push(`${checked[0]} must name a listed repository`);
  if (checked.length > 1) parts.push(`${checked.join(' and ')} must each name a listed repository`);
  if (policy.refuse) {
    const when = Object.entries(policy.refuse.when)
      .map(([name, value]) => `${name} = ${String(value)}`)
      .join(', ');
    parts.push(`refused outright when ${when}`);
  }
  return `Under WOODPECKER_REPOS: ${parts.join('; ')}.`;
}

function typeCell(tool: ToolModel, param: ParamModel): string {
  const property =
    (tool.inputSchema['properties'] as Record<string, Record<string, unknown>>)[param.name] ?? {};
  // Integer or a word (`also:`): the integer's bounds, then the words.
  const branches = property['anyOf'] as Record<string, unknown>[] | undefined;
  const schema = branches?.[0] ?? property;
  const words = branches?.slice(1).flatMap((branch) => branch['enum'] as string[]);
  const notes: string[] = [];
  const items = schema['items'] as Record<string, unknown> | undefined;
  const values = (schema['enum'] ?? items?.['enum']) as string[] | undefined;
  if (values) notes.push(`one of ${values.map((v) => `\`${v}\``).join(', ')}`);
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems']) {
    if (schema[key] !== undefined) notes.push(`${key} ${String(schema[key])}`);
  }
  if (schema['pattern'] === HTTP_URL_PATTERN)
    notes.push('an http:// or https:// URL whose host is a hostname or IPv4 address');
  else if (schema['pattern'] !== undefined)
    notes.push(`pattern \`${cell(String(schema['pattern']))}\``);
  const excluded = (schema['not'] as { enum?: string[] } | undefined)?.enum;
  if (excluded) notes.push(`not ${excluded.map((v) => `\`${v}\``).join(' or ')}`);
  if (words) notes.push(`or ${words.map((v) => `\`${v}\``).join(', ')}`);
  return notes.length > 0 ? `${param.type} (${notes.join('; ')})` : param.type;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** What an approval is bound to, in words: its targets, and the rest of the arguments. */
function boundTo(targets: readonly string[], bindBody: boolean): string {
  if (targets.length === 0) return bindBody ? 'every argument' : 'the tool alone';
  const named = targets.map((target) => `\`${target}\``).join(', ');
  return bindBody ? `${named} and to every other argument` : named;
}

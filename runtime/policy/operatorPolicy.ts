// Decides what the operator's policy adds to one call: nothing, a refusal naming the rule,
// a refusal because a build limit is full (saying when the call may run), or a question
// (asked by the gate, with the same dialog, seal and token fallback as a guarded tool).
// It only ever adds caution: the manifest's questions, WOODPECKER_READ_ONLY, the tool
// lists and WOODPECKER_REPOS are applied elsewhere, and nothing here can lift them.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type {
  PolicyFactSource,
  ToolArgs,
  ToolDefinition,
  WoodpeckerRequest,
} from '../core/tool.js';
import { errorResult } from '../core/errors.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';
import { BuildLimits, type LimitKey } from './buildLimits.js';
import { mostBuildsIn } from './cronRate.js';
import {
  describeRule,
  matchesCall,
  namedDirectly,
  namesTool,
  needsFacts,
  type CallFacts,
  type Fact,
  type LimitSpec,
  type PolicyRule,
} from './policyRule.js';
import { coveredBuilds, otherCrons, type OtherCrons } from './otherCrons.js';

export interface PolicyCall {
  readonly tool: ToolDefinition;
  readonly args: ToolArgs;
  /** Digest of the credential the call runs with (never the token). */
  readonly principal: string;
  readonly send: (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>;
}

/** A question the policy adds; the gate asks it. */
export interface PolicyQuestion {
  readonly rules: readonly string[];
  readonly text: string;
  /** The id of the object the policy read (tools.yaml `policy_facts.read`), bound by the gate. */
  readonly identity?: number;
  /**
   * The tool is not idempotent (it starts a build each time): one approval lets exactly
   * one call through, and a second redemption of it starts nothing.
   */
  readonly singleUse: boolean;
}

export type PolicyVerdict =
  | { readonly kind: 'refused'; readonly rules: readonly string[]; readonly result: CallToolResult }
  | {
      readonly kind: 'proceed';
      /** Every rule that matched (for the audit line). */
      readonly rules: readonly string[];
      readonly question?: PolicyQuestion;
      /** Counted when the call is sent (`take`). */
      readonly limits: readonly CountedLimit[];
    };

/**
 * What counting a call did: refused it (a limit filled meanwhile), or counted it, with how
 * to give the places back should the call then start nothing.
 */
export interface Taken {
  readonly refused?: CallToolResult;
  readonly giveBack?: () => void;
}

interface CountedLimit extends LimitKey {
  readonly rule: PolicyRule;
}

export class OperatorPolicy {
  private readonly limits: BuildLimits;

  constructor(
    readonly file: string,
    readonly rules: readonly PolicyRule[],
    private readonly now: () => number = Date.now,
  ) {
    this.limits = new BuildLimits(now);
  }

  /** Whether some rule may ask about this tool (it then takes a confirm_token argument). */
  mayAsk(tool: ToolDefinition): boolean {
    return this.rules.some((rule) => rule.effect === 'ask' && namesTool(rule, tool));
  }

  /** The rules in force, one line each (doctor). */
  describe(): string[] {
    return this.rules.map(describeRule);
  }

  async decide(call: PolicyCall): Promise<PolicyVerdict> {
    const { tool } = call;
    const scheduling = tool.policyFacts?.schedulesBuilds;
    const schedules = scheduling !== undefined && schedulesNow(scheduling, call.args);
    const candidates = this.rules.filter(
      (rule) =>
        namesTool(rule, tool) &&
        // A cron change that schedules nothing (a rename, disabling it) is held only by the
        // rules that name it, and no limit counts it.
        (scheduling === undefined || schedules || (namedDirectly(rule, tool) && !rule.limit)),
    );
    if (candidates.length === 0) return { kind: 'proceed', rules: [], limits: [] };
    const facts = callFacts(
      call,
      candidates.some(needsFacts) || (schedules && candidates.some((rule) => rule.limit)),
      // A question is bound to the object it is about, so a rule that may ask reads it.
      candidates.some((rule) => rule.effect === 'ask'),
    );
    const matched: PolicyRule[] = [];
    for (const rule of candidates) if (await matchesCall(rule, await facts)) matched.push(rule);
    const names = matched.map((rule) => rule.name);

    const denying = matched.find((rule) => rule.effect === 'deny');
    if (denying)
      return { kind: 'refused', rules: [denying.name], result: this.denied(tool, denying) };

    const repoId = (await facts).repoId;
    if (schedules) {
      // A cron starts its builds later, outside this server: it is held to a limit by its
      // own schedule added to the repository's other crons the rule covers, and counts
      // nothing now.
      const refusal = await this.cronOverLimit(call, matched, await facts);
      if (refusal) return refusal;
    }
    const limits = (schedules ? [] : matched)
      .filter((rule) => rule.limit)
      .map((rule) => limitKey(rule, repoId, call.principal));
    for (const limit of limits) {
      const at = this.limits.nextAllowed(limit);
      if (at !== undefined)
        return {
          kind: 'refused',
          rules: [limit.rule.name],
          result: this.limited(tool, limit.rule, at),
        };
    }

    const asking = matched.filter((rule) => rule.effect === 'ask');
    const identity = (await facts).identity;
    const question =
      asking.length === 0
        ? undefined
        : {
            rules: asking.map((rule) => rule.name),
            text: questionText(tool, call.args, asking),
            singleUse: !tool.annotations.idempotentHint,
            ...(identity === undefined ? {} : { identity }),
          };
    return { kind: 'proceed', rules: names, limits, ...(question ? { question } : {}) };
  }

  /**
   * Counts the call against its limits as it is sent; a limit another call filled in the
   * meantime refuses it, and nothing is counted.
   */
  take(tool: ToolDefinition, verdict: PolicyVerdict): Taken {
    if (verdict.kind !== 'proceed' || verdict.limits.length === 0) return {};
    const at = this.now();
    const full = this.limits.take(verdict.limits, at);
    if (!full) return { giveBack: () => this.limits.giveBack(verdict.limits, at) };
    const rule = verdict.limits.find((limit) => limit.key === full.full.key)!.rule;
    return { refused: this.limited(tool, rule, full.at) };
  }

  /** A refusal when the cron's schedule, with the crons beside it, passes a limit. */
  private async cronOverLimit(
    call: PolicyCall,
    matched: readonly PolicyRule[],
    facts: CallFacts,
  ): Promise<PolicyVerdict | undefined> {
    const { tool, args } = call;
    const text = facts.schedule.known ? facts.schedule.value : undefined;
    let others: OtherCrons | undefined;
    let branch: Promise<Fact> | undefined;
    const repoDefault = () =>
      (branch ??=
        facts.repoId === undefined
          ? Promise.resolve<Fact>({ known: false })
          : defaultBranch(facts.repoId, call.send));
    for (const rule of matched.filter((candidate) => candidate.limit)) {
      const refuse = (message: string): PolicyVerdict => ({
        kind: 'refused',
        rules: [rule.name],
        result: errorResult(
          `${tool.name}: refused by the operator's policy (${limitText(rule)}). ${message}`,
        ),
      });
      const limit = rule.limit!;
      const most = mostBuildsIn(text ?? '', limit.windowMs);
      if (most > limit.builds) return refuse(scheduleOverLimit(limit, most, text !== undefined));
      others ??= await otherCrons(facts.repoId, args['cron_id'], call.send);
      if ('unread' in others)
        return refuse(
          `A cron's builds count with the repository's other crons, and the repository's crons could not be read (${others.unread}). Nothing was changed. Try again later, or ask the server's operator.`,
        );
      const covered = await coveredBuilds(rule, others.crons, facts, repoDefault);
      if (covered.builds + most > limit.builds) {
        const room = limit.builds - covered.builds;
        return refuse(
          `The repository's ${covered.count} other enabled cron${covered.count === 1 ? '' : 's'} this rule covers can already start up to ${covered.builds} builds in ${limit.window}, and this schedule up to ${most} more; Woodpecker starts them all without asking anyone. Nothing was changed. ${room > 0 ? `A schedule that starts at most ${room} build${room === 1 ? '' : 's'} in ${limit.window} fits` : 'No schedule fits until one of those crons is disabled, slowed or deleted'}, or ask the server's operator.`,
        );
      }
    }
    return undefined;
  }

  private denied(tool: ToolDefinition, rule: PolicyRule): CallToolResult {
    return errorResult(
      `${tool.name}: refused by the operator's policy (rule "${rule.name}"${rule.because ? `: ${rule.because}` : ''}). Nothing was done. The server's operator set this rule in WOODPECKER_MCP_POLICY; do not retry, and ask them if the call is needed.`,
    );
  }

  private limited(tool: ToolDefinition, rule: PolicyRule, at: number): CallToolResult {
    const limit = rule.limit!;
    const seconds = Math.max(1, Math.ceil((at - this.now()) / 1000));
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text: `${tool.name}: refused by the operator's policy (rule "${rule.name}": at most ${limit.builds} builds per ${limit.per} in ${limit.window}${rule.because ? `; ${rule.because}` : ''}). Nothing was started and nothing was counted. The next build may start at ${new Date(at).toISOString()} (in ${waitText(seconds)}); do not retry before then.`,
        },
      ],
      structuredContent: {
        refused_by_rule: rule.name,
        retry_after_seconds: seconds,
        retry_at: new Date(at).toISOString(),
      },
    };
  }
}

const CONFIRM_TOKEN = {
  type: 'string',
  description:
    "Only for the two-call fallback when no dialog can be shown and the operator's policy asks: the token the first call returned. It proves the call was made twice with the same arguments, not that a person agreed.",
} as const;

/**
 * The tool as listed when some rule may ask about it: it takes a confirm_token (the
 * fallback when no dialog can be shown) and says that it may ask. Others are unchanged.
 */
export function withPolicyQuestion(tool: ToolDefinition, policy: OperatorPolicy): ToolDefinition {
  if (!policy.mayAsk(tool) || 'confirm_token' in tool.inputSchema.properties) return tool;
  return {
    ...tool,
    description: `${tool.description} The server's operator may have it ask a person first.`,
    inputSchema: {
      ...tool.inputSchema,
      properties: { ...tool.inputSchema.properties, confirm_token: CONFIRM_TOKEN },
    },
  };
}

/** Whether these arguments make the call schedule builds (tools.yaml `schedules_builds`). */
function schedulesNow(
  scheduling: NonNullable<NonNullable<ToolDefinition['policyFacts']>['schedulesBuilds']>,
  args: ToolArgs,
): boolean {
  return (
    scheduling.given.some((name) => args[name] !== undefined) ||
    scheduling.whenTrue.some((name) => args[name] === true)
  );
}

function limitKey(rule: PolicyRule, repoId: number | undefined, principal: string): CountedLimit {
  const limit = rule.limit!;
  const who =
    limit.per === 'repository' ? `repository:${repoId ?? 'unknown'}` : `credential:${principal}`;
  return { rule, key: `${rule.name}\0${who}`, builds: limit.builds, windowMs: limit.windowMs };
}

/** The rule and its limit as refusals name them. */
function limitText(rule: PolicyRule): string {
  const limit = rule.limit!;
  return `rule "${rule.name}": at most ${limit.builds} builds per ${limit.per} in ${limit.window}${rule.because ? `; ${rule.because}` : ''}`;
}

function scheduleOverLimit(limit: LimitSpec, most: number, scheduleRead: boolean): string {
  const counted = scheduleRead
    ? `This schedule can start up to ${most} builds in ${limit.window}`
    : `The schedule could not be read, so it counts as firing at every minute Woodpecker looks: up to ${most} builds in ${limit.window}`;
  return `${counted}, and a cron starts them without asking anyone. Nothing was changed. Choose a schedule that starts at most ${limit.builds} builds in ${limit.window}, or ask the server's operator.`;
}

function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

/**
 * The question a person reads. Like every dialog of this server it shows only numeric ids
 * and enum values from the arguments, the rule names and reasons the operator wrote, and
 * fixed text: a branch name is written by whoever pushed, so it never appears.
 */
function questionText(tool: ToolDefinition, args: ToolArgs, rules: readonly PolicyRule[]): string {
  const properties = tool.inputSchema.properties as Record<
    string,
    { enum?: unknown[] } | undefined
  >;
  const shown = Object.entries(args)
    .filter(
      ([name, value]) =>
        name !== 'confirm_token' &&
        (Number.isSafeInteger(value) ||
          (typeof value === 'string' && properties[name]?.enum?.includes(value) === true)),
    )
    .map(([name, value]) => `${name} ${String(value)}`);
  const why = rules
    .map((rule) => `"${rule.name}"${rule.because ? ` (${rule.because})` : ''}`)
    .join(', ');
  const once = tool.annotations.idempotentHint
    ? ''
    : '\n\nThis approval lets exactly one call through: a repeat needs a new approval.';
  return `${tool.title}: ${tool.name}${shown.length > 0 ? ` with ${shown.join(', ')}` : ''}.\n\nThe server's operator asks a person before this call: rule ${why}.${once}`;
}

/** Reads what the rules need, once per call; a read that fails leaves its facts unknown. */
async function callFacts(
  call: PolicyCall,
  withFacts: boolean,
  forIdentity: boolean,
): Promise<CallFacts & { readonly identity: number | undefined }> {
  const { tool, args } = call;
  const declared = tool.policyFacts;
  let answer: Record<string, unknown> | undefined;
  let readFailed = false;
  if (declared?.read && ((withFacts && needsRead(declared, args)) || forIdentity)) {
    try {
      const body = (await call.send(declared.read(args))).body;
      answer = body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
      readFailed = answer === undefined;
    } catch {
      readFailed = true;
    }
  }
  const fact = (source: PolicyFactSource | undefined): Fact => {
    if (!source) return { known: true, value: undefined };
    if (source.arg !== undefined && typeof args[source.arg] === 'string')
      return { known: true, value: args[source.arg] as string };
    if (source.read !== undefined) {
      if (readFailed) return { known: false };
      const value = answer?.[source.read];
      if (typeof value === 'string' && value !== '') return { known: true, value };
    }
    return { known: true, value: source.value };
  };
  const repoId = repositoryId(tool, args);
  let name: Promise<string | undefined> | undefined;
  const id = answer?.['id'];
  let branch = fact(declared?.branch);
  // A build without a branch (a cron stored with none) runs the repository's default one.
  if (withFacts && declared?.branch && branch.known && !branch.value && repoId !== undefined)
    branch = await defaultBranch(repoId, call.send);
  return {
    identity: Number.isSafeInteger(id) ? (id as number) : undefined,
    repoId,
    repoName: () => (name ??= repositoryName(tool, args, repoId, call.send)),
    branch,
    event: fact(declared?.event),
    deployTo: fact(declared?.deployTo),
    schedule: fact(declared?.schedule),
  };
}

async function defaultBranch(repoId: number, send: PolicyCall['send']): Promise<Fact> {
  try {
    const body = (await send({ method: 'GET', path: `/api/repos/${repoId}` })).body as {
      default_branch?: unknown;
    } | null;
    const value = body?.default_branch;
    return typeof value === 'string' && value !== '' ? { known: true, value } : { known: false };
  } catch {
    return { known: false };
  }
}

function needsRead(declared: NonNullable<ToolDefinition['policyFacts']>, args: ToolArgs): boolean {
  return [declared.branch, declared.event, declared.deployTo, declared.schedule].some(
    (source) =>
      source?.read !== undefined &&
      !(source.arg !== undefined && typeof args[source.arg] === 'string'),
  );
}

function repositoryId(tool: ToolDefinition, args: ToolArgs): number | undefined {
  for (const [name, kind] of Object.entries(tool.repositories?.args ?? {})) {
    if (kind === 'id' && Number.isSafeInteger(args[name])) return args[name] as number;
  }
  return undefined;
}

async function repositoryName(
  tool: ToolDefinition,
  args: ToolArgs,
  repoId: number | undefined,
  send: PolicyCall['send'],
): Promise<string | undefined> {
  for (const [name, kind] of Object.entries(tool.repositories?.args ?? {})) {
    if ((kind === 'full_name' || kind === 'new_full_name') && typeof args[name] === 'string')
      return args[name] as string;
  }
  if (repoId === undefined) return undefined;
  try {
    const body = (await send({ method: 'GET', path: `/api/repos/${repoId}` })).body as {
      full_name?: unknown;
    } | null;
    return typeof body?.full_name === 'string' ? body.full_name : undefined;
  } catch {
    return undefined;
  }
}

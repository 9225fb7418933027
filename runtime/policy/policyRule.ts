// One rule of the operator's policy, after its file was checked: which calls it matches
// (tools or groups, repositories, branches, events, deployment targets) and what it adds
// (a question, a refusal, or a limit on builds). Matching is cautious: a fact this
// server could not learn (a read that failed) counts as matching, so a rule never lapses
// because Woodpecker did not answer.
import { comparableName } from '../core/plainText.js';
import type { ToolDefinition } from '../core/tool.js';

export type Effect = 'ask' | 'deny' | 'limit';

export interface LimitSpec {
  readonly builds: number;
  readonly per: 'repository' | 'credential';
  /** As written in the file ("1h"), for messages. */
  readonly window: string;
  readonly windowMs: number;
}

export interface PolicyRule {
  readonly name: string;
  /** Line of the rule in the policy file, for doctor and messages. */
  readonly line: number;
  readonly tools?: readonly string[];
  readonly groups?: readonly string[];
  /**
   * Tools the rule covers because they schedule builds (a cron) while it names a tool or
   * group that starts them: added when the file is loaded, shown by doctor.
   */
  readonly scheduling?: readonly string[];
  /** Repository ids and `owner/name` patterns. */
  readonly repositories?: readonly (number | string)[];
  readonly branches?: readonly string[];
  readonly events?: readonly string[];
  readonly deployTo?: readonly string[];
  readonly effect: Effect;
  /** The operator's reason, said in refusals and questions. */
  readonly because?: string;
  readonly limit?: LimitSpec;
}

/** A fact of one call: its value, absent (the call has none), or unknown (a read failed). */
export type Fact =
  { readonly known: true; readonly value: string | undefined } | { readonly known: false };

export interface CallFacts {
  readonly repoId: number | undefined;
  /** The repository's `owner/name`, read only when a rule asks for it; undefined when unknown. */
  readonly repoName: () => Promise<string | undefined>;
  readonly branch: Fact;
  readonly event: Fact;
  readonly deployTo: Fact;
  readonly schedule: Fact;
}

/** Why a rule cannot apply to a tool it names, or undefined when it can. */
export function unfitFor(rule: PolicyRule, tool: ToolDefinition): string | undefined {
  if (rule.effect === 'ask' && tool.annotations.readOnlyHint)
    return `${tool.name} only reads, so there is nothing to ask about`;
  if (
    rule.effect === 'limit' &&
    !tool.policyFacts?.startsBuilds &&
    !tool.policyFacts?.schedulesBuilds
  )
    return `${tool.name} starts no builds, so a limit on builds cannot count it`;
  const facts = tool.policyFacts;
  if (rule.branches && !facts?.branch) return `${tool.name} has no branch to match`;
  if (rule.events && !facts?.event) return `${tool.name} has no event to match`;
  if (rule.deployTo && !facts?.deployTo) return `${tool.name} has no deployment target to match`;
  return undefined;
}

/** Whether the rule speaks about this tool at all (by name or group, and fitting it). */
export function namesTool(rule: PolicyRule, tool: ToolDefinition): boolean {
  return (
    (namedDirectly(rule, tool) || coversScheduling(rule, tool)) &&
    unfitFor(rule, tool) === undefined
  );
}

/** The rule names the tool or its group itself. */
export function namedDirectly(rule: PolicyRule, tool: ToolDefinition): boolean {
  return Boolean(rule.tools?.includes(tool.name) || rule.groups?.includes(tool.group));
}

/** The rule covers the tool only because the tool schedules builds (`scheduling`). */
export function coversScheduling(rule: PolicyRule, tool: ToolDefinition): boolean {
  return rule.scheduling?.includes(tool.name) === true;
}

/**
 * The rule with every tool that schedules builds added to it, where it names (by tool or
 * group) a tool that starts them and fits the scheduling tool: a cron on main is a build
 * on main, later.
 */
export function withScheduling(rule: PolicyRule, catalogue: readonly ToolDefinition[]): PolicyRule {
  const startsBuilds = catalogue.some(
    (tool) =>
      tool.policyFacts?.startsBuilds &&
      namedDirectly(rule, tool) &&
      unfitFor(rule, tool) === undefined,
  );
  if (!startsBuilds) return rule;
  const scheduling = catalogue
    .filter(
      (tool) =>
        tool.policyFacts?.schedulesBuilds &&
        !namedDirectly(rule, tool) &&
        unfitFor(rule, tool) === undefined,
    )
    .map((tool) => tool.name);
  return scheduling.length === 0 ? rule : { ...rule, scheduling };
}

export function needsFacts(rule: PolicyRule): boolean {
  return Boolean(rule.branches || rule.events || rule.deployTo);
}

export async function matchesCall(rule: PolicyRule, facts: CallFacts): Promise<boolean> {
  if (!factMatches(rule.branches, facts.branch, branchName)) return false;
  if (!factMatches(rule.events, facts.event, comparableName, (pattern, value) => pattern === value))
    return false;
  if (!factMatches(rule.deployTo, facts.deployTo, comparableName)) return false;
  if (!rule.repositories) return true;
  if (facts.repoId !== undefined && rule.repositories.includes(facts.repoId)) return true;
  const patterns = rule.repositories.filter((entry): entry is string => typeof entry === 'string');
  if (patterns.length === 0) return facts.repoId === undefined;
  const name = await facts.repoName();
  // A name that could not be read matches: the rule must not lapse because a lookup failed.
  if (name === undefined) return true;
  return patterns.some((pattern) => globMatches(pattern.toLowerCase(), name.toLowerCase()));
}

/**
 * Whether a fact matches one of the rule's patterns, both compared as `comparable` reads
 * them (runtime/core/plainText.ts: case, invisible characters and surrounding space do
 * not count).
 */
function factMatches(
  patterns: readonly string[] | undefined,
  fact: Fact,
  comparable: (text: string) => string,
  match: (pattern: string, value: string) => boolean = globMatches,
): boolean {
  if (!patterns) return true;
  if (!fact.known) return true;
  if (fact.value === undefined) return false;
  const value = comparable(fact.value);
  if (value === '') return false;
  return patterns.some((pattern) => match(comparable(pattern), value));
}

/** A branch as the forge reads it: `refs/heads/main` is main. */
function branchName(text: string): string {
  return comparableName(text).replace(/^refs\/heads\//, '');
}

/**
 * `*` is any run of characters without a slash, `**` any run at all, `?` one character
 * other than a slash; everything else is itself. `release/*` matches `release/1.2`,
 * not `release/1.2/hotfix`.
 */
export function globMatches(pattern: string, text: string): boolean {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's').test(text);
}

/** One line for doctor and docs: what the rule matches and what it does. */
export function describeRule(rule: PolicyRule): string {
  const what = [
    rule.tools ? `tools ${rule.tools.join(', ')}` : undefined,
    rule.groups ? `groups ${rule.groups.join(', ')}` : undefined,
    rule.scheduling ? `and ${rule.scheduling.join(', ')} where they schedule builds` : undefined,
    rule.repositories ? `repositories ${rule.repositories.join(', ')}` : undefined,
    rule.branches ? `branches ${rule.branches.join(', ')}` : undefined,
    rule.events ? `events ${rule.events.join(', ')}` : undefined,
    rule.deployTo ? `deploy_to ${rule.deployTo.join(', ')}` : undefined,
  ].filter((part) => part !== undefined);
  const effect = rule.limit
    ? `limit ${rule.limit.builds} builds per ${rule.limit.per} per ${rule.limit.window}`
    : rule.effect;
  return `${rule.name} (line ${rule.line}): ${effect} on ${what.join('; ')}`;
}

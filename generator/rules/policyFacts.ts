// Stage 1b (compiled in stage 3): The `policy_facts` field of a tool: what an operator policy rule (WOODPECKER_MCP_POLICY,
// runtime/policy/) may match on besides the tool, its group and its repository. The
// runtime never names a tool, so whether a call starts a build, and where its branch,
// event and deployment target come from (an argument, a field of a read, a fixed value),
// is declared here and checked against the tool's own parameters.
import type {
  ManifestFactSource,
  ManifestPolicyFacts,
  ManifestTool,
} from '../manifest/manifestTypes.js';
import { integersAsText } from '../model.js';

type Refuse = (segments: readonly (string | number)[], message: string) => void;

const FACTS = ['branch', 'event', 'deploy_to', 'schedule'] as const;

export function checkPolicyFacts(
  tool: ManifestTool,
  facts: ManifestPolicyFacts,
  refuse: Refuse,
): void {
  if (tool.annotations.readOnlyHint && facts.starts_builds)
    refuse(
      ['policy_facts', 'starts_builds'],
      'is true on a read-only tool; a read starts nothing (or set readOnlyHint: false)',
    );
  if (facts.starts_builds && !tool.repositories?.args)
    refuse(
      ['policy_facts', 'starts_builds'],
      'is true, but no argument names a repository, so a per-repository limit could not count it; declare `repositories`',
    );
  const scheduling = facts.schedules_builds;
  if (scheduling) {
    if (facts.starts_builds)
      refuse(
        ['policy_facts', 'schedules_builds'],
        'is given with starts_builds: true; a call either starts a build now or schedules them, not both',
      );
    for (const [key, wanted] of [
      ['given', undefined],
      ['when_true', 'boolean'],
    ] as const)
      for (const name of scheduling[key] ?? []) {
        const param = tool.params[name];
        if (!param)
          refuse(
            ['policy_facts', 'schedules_builds', key],
            `names ${name}, which is not a parameter of this tool`,
          );
        else if (wanted && param.type !== wanted)
          refuse(
            ['policy_facts', 'schedules_builds', key],
            `names ${name}, which is ${param.type}, not boolean`,
          );
      }
    if (!facts.schedule)
      refuse(
        ['policy_facts', 'schedules_builds'],
        'is given without a `schedule` fact; a limit rule needs the schedule to count the builds it starts',
      );
  }
  for (const fact of FACTS) {
    const source = facts[fact];
    if (!source) continue;
    if (source.arg !== undefined) {
      const param = tool.params[source.arg];
      if (!param)
        refuse(
          ['policy_facts', fact, 'arg'],
          `names ${source.arg}, which is not a parameter of this tool`,
        );
      else if (param.type !== 'string')
        refuse(
          ['policy_facts', fact, 'arg'],
          `names ${source.arg}, which is ${param.type}; a ${fact} is a string`,
        );
    }
    if (source.read !== undefined && facts.read === undefined)
      refuse(
        ['policy_facts', fact, 'read'],
        'takes a field of the read, but policy_facts has no `read`; add `read: <get tool>`',
      );
  }
}

/** Where a fact comes from, as the runtime reads it (ToolDefinition.policyFacts). */
export interface FactSourceModel {
  readonly arg?: string;
  readonly read?: string;
  readonly value?: string;
}

export interface PolicyFactsModel {
  readonly startsBuilds: boolean;
  readonly schedulesBuilds?: {
    readonly given: readonly string[];
    readonly whenTrue: readonly string[];
  };
  /** The read-only tool whose request function gives the `read` facts. */
  readonly read?: {
    readonly tool: string;
    readonly requestFunction: string;
    /** Integer arguments the read takes as text (a pipeline number), converted with String(). */
    readonly asText: readonly string[];
  };
  readonly branch?: FactSourceModel;
  readonly event?: FactSourceModel;
  readonly deployTo?: FactSourceModel;
  readonly schedule?: FactSourceModel;
}

export function policyFactsModel(
  tool: ManifestTool,
  requestFunctionOf: (toolName: string) => string,
  toolNamed: (toolName: string) => ManifestTool | undefined,
): PolicyFactsModel | undefined {
  const facts = tool.policy_facts;
  if (!facts) return undefined;
  const copy = (source: ManifestFactSource | undefined) => (source ? { ...source } : undefined);
  const branch = copy(facts.branch);
  const event = copy(facts.event);
  const deployTo = copy(facts.deploy_to);
  const schedule = copy(facts.schedule);
  const scheduling = facts.schedules_builds;
  return {
    startsBuilds: facts.starts_builds,
    ...(scheduling
      ? {
          schedulesBuilds: {
            given: [...(scheduling.given ?? [])],
            whenTrue: [...(scheduling.when_true ?? [])],
          },
        }
      : {}),
    ...(facts.read === undefined
      ? {}
      : {
          read: {
            tool: facts.read,
            requestFunction: requestFunctionOf(facts.read),
            asText: integersAsText(tool, toolNamed(facts.read)),
          },
        }),
    ...(branch ? { branch } : {}),
    ...(event ? { event } : {}),
    ...(deployTo ? { deployTo } : {}),
    ...(schedule ? { schedule } : {}),
  };
}

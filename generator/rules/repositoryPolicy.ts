// Stage 1b (compiled in stage 3): The `repositories` field of a tool: which arguments name a repository, for the
// WOODPECKER_REPOS allowlist (runtime/call/repositoryScope.ts), and the one use of the
// tool the allowlist cannot contain. The runtime knows no tool names, so a repository
// argument nobody declared would be one the allowlist never looks at: a parameter named
// like one must be declared, and a declaration must name a real parameter of the right type.
import type {
  ManifestParam,
  ManifestTool,
  RepositoryReference,
} from '../manifest/manifestTypes.js';

type Refuse = (segments: readonly (string | number)[], message: string) => void;

/** Parameter names that always name a repository, and how. */
const CONVENTIONAL: Readonly<Record<string, RepositoryReference>> = {
  repo_id: 'id',
  full_name: 'full_name',
};

/** The parameter type each kind of reference arrives as. */
const TYPE_OF: Readonly<Record<RepositoryReference, ManifestParam['type']>> = {
  id: 'integer',
  full_name: 'string',
  new_full_name: 'string',
  forge_remote_id: 'string',
};

export function checkRepositoryPolicy(tool: ManifestTool, refuse: Refuse): void {
  const declared = tool.repositories?.args ?? {};
  for (const [name, kind] of Object.entries(CONVENTIONAL)) {
    if (!(name in tool.params) || declared[name] === kind) continue;
    refuse(
      name in declared ? ['repositories', 'args', name] : ['params', name],
      name in declared
        ? `declares ${name} as ${declared[name]}; ${name} names a repository as ${kind}, so write \`${name}: ${kind}\``
        : `names a repository, and \`repositories.args\` does not declare it, so WOODPECKER_REPOS would not look at it; add \`repositories: { args: { ${name}: ${kind} } }\``,
    );
  }
  for (const [name, kind] of Object.entries(declared)) {
    const param = tool.params[name];
    if (!param) {
      refuse(
        ['repositories', 'args', name],
        'names a parameter the tool does not declare; declare it under params or remove it here',
      );
    } else if (param.type !== TYPE_OF[kind]) {
      refuse(
        ['repositories', 'args', name],
        `is ${kind}, which arrives as ${TYPE_OF[kind]}, but ${name} is ${param.type}`,
      );
    }
  }
  for (const [name, value] of Object.entries(tool.repositories?.refuse?.when ?? {})) {
    const at = ['repositories', 'refuse', 'when', name];
    const param = tool.params[name];
    if (!param) refuse(at, 'names a parameter the tool does not declare; declare it under params');
    else if (param.type === 'boolean') {
      if (typeof value !== 'boolean') refuse(at, `compares the boolean ${name}; use true or false`);
    } else if (param.type === 'string' && param.enum) {
      if (!param.enum.includes(String(value)))
        refuse(
          at,
          `${JSON.stringify(value)} is not one of ${name}'s enum values (${param.enum.join(', ')})`,
        );
    } else {
      refuse(at, `may only test a boolean or a string parameter with an enum; ${name} is neither`);
    }
  }
}

/** The data the runtime reads (ToolDefinition.repositories); undefined when nothing is declared. */
export interface RepositoryPolicyModel {
  readonly args: Readonly<Record<string, RepositoryReference>>;
  readonly refuse?: {
    readonly when: Readonly<Record<string, string | boolean>>;
    readonly because: string;
  };
}

export function repositoryPolicyModel(tool: ManifestTool): RepositoryPolicyModel | undefined {
  const policy = tool.repositories;
  if (!policy) return undefined;
  return {
    args: { ...policy.args },
    ...(policy.refuse === undefined
      ? {}
      : {
          refuse: {
            when: { ...policy.refuse.when },
            // One sentence in an error message: the author's YAML wraps are not line breaks.
            because: policy.refuse.because.trim().replace(/\s*\n\s*/g, ' '),
          },
        }),
  };
}

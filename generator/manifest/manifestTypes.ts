// Stage 1: The shape of tools.yaml after it passed generator/manifest/manifest.schema.json. These types
// mirror the schema; docs/manifest.md explains each field.

/** How Woodpecker folds a secret name or registry address (runtime/gate/sameNameLevels.ts NAME_FOLDS). */
/** A family of events Woodpecker treats as one (runtime/core/woodpeckerEvents.ts). */
export type EventFamily = 'pull_request';

export type NameFold = 'letter_case' | 'registry_host';

export type ParamType = 'integer' | 'string' | 'boolean' | 'string_list' | 'string_map';
export type Scalar = string | number | boolean;

export interface ManifestParam {
  readonly type: ParamType;
  readonly description: string;
  readonly required?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly min_length?: number;
  readonly max_length?: number;
  readonly pattern?: string;
  /**
   * `http_url`: an http(s) URL with a hostname; a dialog may show its host as {param.host}.
   * `git_branch`: a branch name git accepts (runtime/core/branchName.ts).
   * `registry_address`: an address Woodpecker stores (runtime/core/registryAddress.ts).
   */
  readonly format?: 'http_url' | 'git_branch' | 'registry_address';
  /** Prose or a pattern, not a name: exempt from the plain-text check (runtime/call/plainArguments.ts). */
  readonly free_text?: true;
  /** Parameters this one is refused without: Woodpecker ignores it unless they are given. */
  readonly needs?: readonly string[];
  readonly enum?: readonly string[];
  readonly min_items?: number;
  /** Words an integer parameter takes besides a number (get_pipeline's "latest"). */
  readonly also?: readonly string[];
  /** A credential: advertised as writeOnly, never echoed in an error, never logged. */
  readonly secret?: true;
  /** The oldest Woodpecker release that honours this parameter ("3.13.0"). */
  readonly since?: string;
  /** What releases before `since` do anyway: passing exactly this value is not refused there. */
  readonly implied_before_since?: Scalar;
}

/** A query or body value: a tool parameter, or a fixed value. */
export type FieldSource = string | { readonly const: Scalar } | CurrentSource;

/**
 * A body value taken from the object as it is now (the call's `current` read), for a
 * Woodpecker PATCH that overwrites what it is not sent: `{ param, or_current }` sends the
 * argument, or when it is not given the current value; `{ current }` always the current
 * value. `default` when the current object lacks it. Dotted paths reach into objects.
 */
export type CurrentSource =
  | { readonly param: string; readonly or_current: string; readonly default?: Scalar | EmptyObject }
  | { readonly current: string; readonly default?: Scalar | EmptyObject };

export type EmptyObject = Readonly<Record<string, never>>;

export interface ManifestCall {
  /** Equalities on enum/boolean params; the key `present` names a param that must be given. */
  readonly when?: Readonly<Record<string, string | boolean>>;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly path_params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | { readonly const: Scalar }>>;
  readonly body?: Readonly<Record<string, FieldSource>>;
  /** The read-only tool that returns the object as it is now, for `or_current`/`current` body values. */
  readonly current?: string;
}

export interface ManifestOutput {
  readonly kind: 'object' | 'list' | 'none' | 'text';
  readonly redact: readonly string[];
  readonly reveal: readonly string[];
  readonly untrusted: boolean;
  /**
   * The answer must name a stored object (a nonzero `id`): Woodpecker answers some writes
   * that matched nothing with 200 and id 0, which is then an error, not a success.
   */
  readonly stored_id?: true;
  /** The fields a model reads: a named view (`views:`) or a list of entries. */
  readonly view?: string | ManifestView;
}

/**
 * A view: field names in reading order; `{ field: time }` shows Unix seconds as ISO 8601
 * UTC, `{ field: as_sent }` the value even when it is false or 0, `{ took: duration }` how long the object ran (from its started and finished),
 * `{ field: <view name> }` the field's object or list through that named view,
 * `{ field: { absent_means: value } }` the field as sent, left out when it is that value,
 * `{ field: { time_unless_same_as: other } }` a time left out when it equals the other field,
 * `{ field: { without_keys: [key, …] } }` a map without those keys.
 */
export type ManifestView = readonly (
  | string
  | Readonly<
      Record<
        string,
        | string
        | { readonly absent_means: string | number | boolean }
        | { readonly time_unless_same_as: string }
        | { readonly without_keys: readonly string[] }
      >
    >
)[];

export type Predicate =
  | { readonly equals: { readonly param: string; readonly value: Scalar } }
  | { readonly in: { readonly param: string; readonly values: readonly Scalar[] } }
  | { readonly present: string }
  | { readonly absent: string }
  | { readonly grants: { readonly param: string; readonly current?: string } }
  | {
      readonly lowers: {
        readonly param: string;
        readonly current?: string;
        readonly order: readonly string[];
      };
    }
  | {
      readonly widens: {
        readonly param: string;
        readonly current?: string;
        readonly order: readonly string[];
      };
    }
  | {
      readonly becomes: {
        readonly param: string;
        readonly value: Scalar;
        readonly current?: string;
      };
    }
  | { readonly adds: { readonly param: string; readonly value: string; readonly current?: string } }
  | { readonly adds_any: { readonly param: string; readonly current?: string } }
  | {
      /** The list gains an event of a family (runtime/core/woodpeckerEvents.ts). */
      readonly adds_family: {
        readonly param: string;
        readonly family: EventFamily;
        readonly current?: string;
      };
    }
  | { readonly empties: { readonly param: string; readonly current?: string } }
  | {
      /**
       * The call's `scope` level; asks when `list` finds `param`'s value, folded as
       * Woodpecker folds it, at a wider level (or at its own under another spelling).
       */
      readonly shadows: {
        readonly param: string;
        readonly list: string;
        readonly organization_of: string;
        readonly fold: NameFold;
        readonly same_level: boolean;
      };
    }
  | { readonly any: readonly Predicate[] };

export interface ManifestPageLink {
  readonly when?: Readonly<Record<string, string>>;
  readonly where: string;
  readonly path: string;
}

export interface ManifestGuard {
  readonly read?: string;
  /** Dotted path of the object's own id in the answer of `read` (an integer in the spec). */
  readonly identity?: string;
  readonly when: 'always' | Predicate;
  readonly targets: readonly string[];
  readonly bind_body: boolean;
  readonly dialog: string;
  /** Web UI pages where a person sees the object (runtime/core/tool.ts PageLink). */
  readonly link?: readonly ManifestPageLink[];
  /** When the arguments need an instance admin: such a call by anyone else is refused before asking. */
  readonly needs_admin?: Predicate;
}

/** How an argument names a repository (runtime/core/tool.ts RepositoryReference). */
export type RepositoryReference = 'id' | 'full_name' | 'new_full_name' | 'forge_remote_id';

/** What the WOODPECKER_REPOS allowlist needs to know about a tool. */
export interface ManifestRepositories {
  /** Parameter name → how it names a repository. */
  readonly args: Readonly<Record<string, RepositoryReference>>;
  /** A use the allowlist cannot contain: refused when every equality holds. */
  readonly refuse?: {
    readonly when: Readonly<Record<string, string | boolean>>;
    readonly because: string;
  };
}

/** Where one fact an operator policy rule matches on comes from: the argument when given, else the read's field, else a fixed value. */
export interface ManifestFactSource {
  readonly arg?: string;
  readonly read?: string;
  readonly value?: string;
}

/** What an operator policy (WOODPECKER_MCP_POLICY) may match on for this tool's calls. */
export interface ManifestPolicyFacts {
  /** The call starts a pipeline, so a `limit` rule counts it. */
  readonly starts_builds: boolean;
  /** The call makes Woodpecker start builds later (a cron), when these arguments say so. */
  readonly schedules_builds?: {
    readonly given?: readonly string[];
    readonly when_true?: readonly string[];
  };
  /** A read-only tool whose answer gives the `read` facts (the pipeline, the cron). */
  readonly read?: string;
  readonly branch?: ManifestFactSource;
  readonly event?: ManifestFactSource;
  readonly deploy_to?: ManifestFactSource;
  /** A cron's schedule, for counting the builds it will start against a limit. */
  readonly schedule?: ManifestFactSource;
}

export interface ManifestAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface ManifestTool {
  readonly name: string;
  readonly title: string;
  readonly group: string;
  readonly admin_only: boolean;
  readonly essential: boolean;
  /** Reads only public routes, so it runs before a token is configured. */
  readonly works_without_token?: boolean;
  /** Absent: no parameter names a repository (one named repo_id or full_name must be declared). */
  readonly repositories?: ManifestRepositories;
  /** Absent: policy rules match this tool on its name, group and repository only. */
  readonly policy_facts?: ManifestPolicyFacts;
  readonly description: string;
  readonly annotations: ManifestAnnotations;
  /** Named parameter sets (Manifest.param_sets) whose parameters come before `params`. */
  readonly params_from?: readonly string[];
  readonly params: Readonly<Record<string, ManifestParam>>;
  readonly calls?: readonly ManifestCall[];
  /** A handler's reads before its own call, in order: read-only tools of this manifest. */
  readonly reads_first?: readonly string[];
  readonly handler?: string;
  /** The MCP Apps view a host that renders views shows with the answer (read-only tools). */
  readonly app?: string;
  readonly output: ManifestOutput;
  readonly errors?: Readonly<Record<string, string>>;
  /** Read tools that show what this write did (generator/rules/readBack.ts); absent: by naming. */
  readonly read_back?: readonly string[];
  readonly guard: 'never' | ManifestGuard;
}

export interface Manifest {
  /** Shared wording, by name: `{{name}}` in a description, and two fixed roles (generator/manifest/sharedSentences.ts). */
  readonly sentences?: Readonly<Record<string, string>>;
  /** Longer explanations for docs/tools.md, by tool name; never in the tool list. */
  readonly details?: Readonly<Record<string, string>>;
  /** Parameters several tools declare alike, by set name (generator/manifest/paramSets.ts). */
  readonly param_sets?: Readonly<Record<string, Readonly<Record<string, ManifestParam>>>>;
  /** Named views tools share (`view: pipeline`), by name. */
  readonly views?: Readonly<Record<string, ManifestView>>;
  readonly tools: readonly ManifestTool[];
}

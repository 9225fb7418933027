// The shape every generated tool definition has. generated/ fills it from tools.yaml;
// the runtime (server, gate, executor) only ever reads it. Nothing here is specific to
// one tool: a tool's policy lives in tools.yaml, not in code.

/** What one read found: the entry, a 404, or an answer that says nothing (403, 5xx). */
export type Looked =
  | { readonly status: 'found'; readonly body: unknown }
  | { readonly status: 'absent' }
  | { readonly status: 'unreadable' };

/** What one level of secrets or registries holds under a call's name, as Woodpecker compares. */
export interface LevelFinding {
  readonly scope: 'repository' | 'organization' | 'global';
  /** The repository or organization id; absent for global (and an unknown organization). */
  readonly id?: number;
  /** `collides`: an entry there is the same name for pipelines; `unknown`: could not tell. */
  readonly status: 'collides' | 'clear' | 'unknown';
}

/** Performs one GET for the gate; the executor maps statuses to `Looked`. */
export type Look = (request: WoodpeckerRequest) => Promise<Looked>;

/** A JSON Schema object as the MCP tool listing advertises it. */
export type JsonSchemaObject = {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly [keyword: string]: unknown;
};

/**
 * The argument the generator adds to every guarded tool: the two-call fallback's token.
 * It steers the gate, never the call (not bound, never logged, never a filter).
 */
export const GATE_ARGUMENT = 'confirm_token';

/** Arguments after the MCP layer validated them against the input schema. */
export type ToolArgs = Readonly<Record<string, unknown>>;

/** All four MCP tool annotations; tools.yaml states each one explicitly. */
export interface ToolAnnotationSet {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One call to Woodpecker, fully built from validated arguments. The path is relative to
 * the server root and already carries the `/api` prefix where the route has one
 * (`/version` and `/healthz` do not). Path segments are already URI-encoded.
 */
export interface WoodpeckerRequest {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/**
 * How the runtime turns Woodpecker's answer into an MCP result.
 * - `object`: a JSON object, returned as structuredContent.
 * - `list`: a JSON array (Woodpecker pages it silently), returned as
 *   `{ items, page, per_page, may_have_more }`.
 * - `none`: an empty answer (204); the result says what was done.
 * - `text`: a text/plain answer, returned as `{ text }`.
 * A hand-written handler returns its own data (see runtime/output/answer.ts ToolAnswer);
 * its manifest entry still declares a kind, and the same output step applies to it.
 */
export type OutputKind = 'object' | 'list' | 'none' | 'text';

export interface OutputSpec {
  readonly kind: OutputKind;
  /** Fields removed from every object in the answer, on top of the runtime's standing list. */
  readonly redact: readonly string[];
  /** Fields that would be redacted but this tool must return (create_agent's token). */
  readonly reveal: readonly string[];
  /**
   * The answer can carry text written by whoever can push to a repository (commit
   * messages, branch names, configs, logs): the result is marked untrusted.
   */
  readonly untrusted: boolean;
  /**
   * The answer must name a stored object (a nonzero `id`): Woodpecker answers some writes
   * that matched nothing with 200 and id 0.
   */
  readonly storedId?: true;
  /**
   * The fields a model reads, in reading order (tools.yaml `view`, checked against the
   * spec). Absent: the answer is Woodpecker's object as it came.
   */
  readonly view?: View;
}

/** The fields of one object a model sees; a list's view is the view of each entry. */
export type View = readonly ViewField[];

/**
 * One field of a view: copied (empties left out), as sent (false and 0 shown too, where
 * they are the news: a permission the account lacks), shown as a time (Unix seconds →
 * ISO 8601 UTC), as how long the object ran (`took`, from its `started` and `finished`),
 * through a nested view (a pipeline's workflows, a workflow's steps), or copied as sent
 * but left out when it is `absentMeans` (a default: a cron's timezone "UTC"), so that its
 * absence reads as that value and `false` is shown. A time with `unlessSameAs` is left out
 * when it equals that field (a pipeline created and started in the same second). A map
 * shown `without` leaves out the named `keys` (a task's internal labels that repeat its
 * repository and forge ids and route nothing).
 */
export type ViewField =
  | { readonly name: string; readonly show: 'copy' | 'took' | 'sent' }
  | { readonly name: string; readonly show: 'time'; readonly unlessSameAs?: string }
  | { readonly name: string; readonly show: 'view'; readonly view: View }
  | { readonly name: string; readonly show: 'unless'; readonly absentMeans: ViewScalar }
  | { readonly name: string; readonly show: 'without'; readonly keys: readonly string[] };

/** A value a view entry can name: what a field's absence stands for. */
export type ViewScalar = string | number | boolean;

/**
 * The compiled guard of a tool that asks a person first. Present only on guarded tools
 * (`guard: never` in tools.yaml compiles to no guard at all).
 */
export interface GuardSpec<A extends ToolArgs = ToolArgs> {
  /**
   * Argument names that say which object the call acts on, in the order the tool names
   * them. The approval fingerprint is built from these values in this order.
   */
  readonly targets: readonly string[];
  /**
   * True where the call decides more than which object it touches (an update with a
   * body): the fingerprint then also covers every other argument.
   */
  readonly bindBody: boolean;
  /** The read that gives the current value, for predicates that compare with it. */
  read?(args: A): WoodpeckerRequest;
  /**
   * Dotted path of the object's own id in the answer of `read`. The approval is bound to
   * it, so an object deleted and created again under the same name is a new question.
   */
  readonly identity?: string;
  /**
   * The reads a `shadows` predicate declares: what the call's own level (where the
   * manifest says it counts) and every wider level hold under the call's name.
   */
  wider?(args: A, look: Look): Promise<readonly LevelFinding[]>;
  /**
   * Why this call must ask; an empty list means it applies at once. Each reason is a
   * fixed sentence from the manifest (param names and enum values only).
   * `current` is the decoded answer of `read`, or undefined when there is no read;
   * `wider` is what `wider` found, or undefined when there is none.
   */
  reasons(args: A, current: unknown, wider?: readonly LevelFinding[]): readonly string[];
  /**
   * The dialog text: numeric ids and enum values from the arguments, integer ids from
   * `current` (the read's answer), fixed text otherwise.
   */
  dialog(args: A, current: unknown): string;
  /**
   * Whether these arguments need an instance admin (tools.yaml `needs_admin`). A call
   * that would ask is refused first when Woodpecker says the caller is not one: nobody
   * should be asked to approve a call Woodpecker then refuses with 403.
   */
  needsAdmin?(args: A): boolean;
  /**
   * Where a person sees the object in Woodpecker's web UI (tools.yaml `guard.link`): the
   * first entry whose `when` holds is used. Paths and `where` hold fixed words and
   * `{placeholders}` that only integer arguments or integer fields of the read fill.
   */
  readonly links?: readonly PageLink[];
  /** One line for docs and errors: when this tool asks ("always", "only when ..."). */
  readonly condition: string;
}

/** One page of Woodpecker's web UI, as tools.yaml declares it under `guard.link`. */
export interface PageLink {
  /** Argument → enum value; every one must hold for this entry to apply. */
  readonly when?: Readonly<Record<string, string>>;
  /** What the page shows, in fixed words and ids ("the secrets of repository {repo_id}"). */
  readonly where: string;
  /** The page's path below WOODPECKER_URL ("/repos/{repo_id}/settings/secrets"). */
  readonly path: string;
}

/**
 * How an argument names a repository, for the WOODPECKER_REPOS allowlist:
 * - `id`: a Woodpecker repository id, judged by the name Woodpecker gives it now;
 * - `full_name`: an existing repository's "owner/name", in the list and, looked up (old
 *   names redirect), still in the list;
 * - `new_full_name`: a name the call gives a repository (a move's target); it must be in
 *   the list and need not exist yet;
 * - `forge_remote_id`: the forge's id of a repository, judged by the name the forge's list
 *   gives it.
 */
export type RepositoryReference = 'id' | 'full_name' | 'new_full_name' | 'forge_remote_id';

/** What WOODPECKER_REPOS needs to know about a tool (tools.yaml `repositories`). */
export interface RepositoryPolicy {
  /** Argument name → how it names a repository; each one given is checked. */
  readonly args: Readonly<Record<string, RepositoryReference>>;
  /**
   * A use of the tool the allowlist cannot contain (one that reaches every repository):
   * refused when every argument in `when` has that value, with `because` as the reason.
   */
  readonly refuse?: {
    readonly when: Readonly<Record<string, string | boolean>>;
    readonly because: string;
  };
}

/**
 * Where one fact an operator policy rule matches on comes from: the argument when the
 * call gives it, else the field of the facts' read, else a fixed value.
 */
export interface PolicyFactSource {
  readonly arg?: string;
  readonly read?: string;
  readonly value?: string;
}

/** What an operator policy (runtime/policy/) may match on for a tool's calls (tools.yaml `policy_facts`). */
export interface PolicyFacts<A extends ToolArgs = ToolArgs> {
  /** The call starts a pipeline: a `limit` rule counts it. */
  readonly startsBuilds: boolean;
  /**
   * The call makes Woodpecker start builds later (a cron): when one of `given` is passed
   * or one of `whenTrue` is true. Rules about starting builds cover it then.
   */
  readonly schedulesBuilds?: {
    readonly given: readonly string[];
    readonly whenTrue: readonly string[];
  };
  /** The read (a GET) whose answer gives the `read` facts: the pipeline, the cron. */
  read?(args: A): WoodpeckerRequest;
  readonly branch?: PolicyFactSource;
  readonly event?: PolicyFactSource;
  readonly deployTo?: PolicyFactSource;
  /** A cron's schedule, counted against a limit's window. */
  readonly schedule?: PolicyFactSource;
}

// Functions are declared as methods so a ToolDefinition<SpecificArgs> fits in a list of
// ToolDefinition: the MCP layer has validated the arguments against inputSchema before
// any of them runs.
export interface ToolDefinition<A extends ToolArgs = ToolArgs> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly group: string;
  /** Needs an instance admin (documentation and a hint in 403 errors). */
  readonly adminOnly: boolean;
  /** Reads only public routes, so it runs before a token is configured (get_server_info). */
  readonly worksWithoutToken?: boolean;
  /** Part of the `essential` preset for WOODPECKER_ALLOW_TOOLS. */
  readonly essential: boolean;
  readonly annotations: ToolAnnotationSet;
  readonly inputSchema: JsonSchemaObject;
  readonly output: OutputSpec;
  /**
   * What a given HTTP status means for this tool and what to try, keyed by status code
   * ("400", "422"); the runtime adds these to its generic explanation.
   */
  readonly errorHints: Readonly<Record<string, string>>;
  /**
   * Read tools that show what this write did (tools.yaml `read_back`, or by the
   * catalogue's naming), named when the outcome of a call is unknown.
   */
  readonly readBack?: readonly string[];
  /** The arguments an audit line records for a write: the object it touches, never a secret. */
  readonly auditTargets?: readonly string[];
  /**
   * Parameters older Woodpecker releases silently drop, with the oldest release that
   * honours each ("note" → "3.13.0"). Given to an older server, the call is refused
   * with a message naming the parameter and the release it needs.
   */
  readonly since?: Readonly<Record<string, string>>;
  /**
   * Values older releases apply anyway when the field is missing (a cron is always enabled
   * before 3.15): passing exactly that value is not refused there.
   */
  readonly impliedBeforeSince?: Readonly<Record<string, string | number | boolean>>;
  /**
   * The oldest Woodpecker release with every route the tool calls (from the committed
   * specs); on an older server the tool is not listed, and a call by name is refused.
   */
  readonly availableSince?: string;
  /**
   * Builds the one Woodpecker call; absent only for handler-only tools. `current` is the
   * object as it is now (`current` below), for the body values taken from it.
   */
  request?(args: A, current?: unknown): WoodpeckerRequest;
  /**
   * A write whose Woodpecker PATCH overwrites what it is not sent (tools.yaml `current`):
   * read the object first, and build the call with it.
   */
  readonly current?: CurrentRead<A>;
  /** Name of a hand-written handler in runtime/handlers/ that runs instead of the plain call. */
  readonly handler?: string;
  /**
   * The read-only tools whose Woodpecker call the handler sends before its own, in order
   * (tools.yaml `reads_first`): with `request`, every request one call makes.
   */
  readonly readsFirst?: readonly string[];
  /**
   * The MCP Apps view (a `ui://` resource) that hosts rendering the
   * io.modelcontextprotocol/ui extension show beside this read's answer; absent: none.
   */
  readonly app?: string;
  readonly guard?: GuardSpec<A>;
  /** Absent: no argument names a repository, and the allowlist does not look at the call. */
  readonly repositories?: RepositoryPolicy;
  /** Absent: operator policy rules match the tool on its name, group and repository only. */
  readonly policyFacts?: PolicyFacts<A>;
}

/** How a write reads the object it changes before building its call. */
export interface CurrentRead<A = ToolArgs> {
  /** Whether these arguments send any value taken from the current object. */
  needed(args: A): boolean;
  read(args: A): WoodpeckerRequest;
  /** The guard reads the same object first: its answer is used instead of a second GET. */
  readonly sameAsGuardRead: boolean;
}

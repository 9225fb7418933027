// WOODPECKER_REPOS: a repository allowlist enforced here, for operators whose Woodpecker
// token cannot be scoped. A repository outside it answers exactly as one that does not
// exist, and answers leave it out.
//
// Three rules keep it closed:
// - Decisions use the name Woodpecker gives *now*: a repository id is looked up on every
//   call (a repository renamed out of the list must stop working at once), and a name is
//   looked up too, because Woodpecker follows its redirects from old names.
// - A lookup that fails or times out refuses the call; it never lets it through.
// - With the list set, a repository Woodpecker does not know gets the same refusal as one
//   outside the list, so the two cannot be told apart.
//
// Which arguments name a repository, and which use of a tool the list cannot contain, is
// data on the tool definition (tools.yaml `repositories`); nothing here knows a tool by
// name. The lookups below are this check's own reads, made with the request builders of
// get_repository, lookup_repository and list_repositories: they are how Woodpecker says
// what an id or a forge id is, not a tool being composed.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type {
  RepositoryPolicy,
  RepositoryReference,
  ToolArgs,
  ToolDefinition,
  WoodpeckerRequest,
} from '../core/tool.js';
import { errorResult } from '../core/errors.js';
import {
  WoodpeckerHttpError,
  WoodpeckerNotApiError,
  WoodpeckerUnreachableError,
  type Send,
} from '../woodpecker/woodpeckerClient.js';

/** What Woodpecker says an id or name is right now; `missing` when it answers 404. */
type Resolution = { readonly fullName: string } | 'missing';

/** Woodpecker could not say which repository something is; the call must not go on. */
class LookupFailed extends Error {}

/** One argument value that names a repository, and how it names it. */
interface Reference {
  readonly kind: RepositoryReference;
  readonly value: string | number;
}

/** What prune returns for a node that belongs to a repository outside the list. */
const OUTSIDE = Symbol('outside the allowlist');

export class RepositoryScope {
  private readonly exact = new Set<string>();
  private readonly owners = new Set<string>();
  /**
   * Lookups of the current call, keyed by the call's own send function (one per call):
   * a list of fifty pipelines of one repository costs one lookup, and nothing read in
   * one call is trusted in the next.
   */
  private readonly lookups = new WeakMap<Send, Map<string, Promise<Resolution>>>();

  constructor(
    patterns: readonly string[],
    private readonly tools: ReadonlyMap<string, ToolDefinition>,
  ) {
    for (const pattern of patterns) {
      const { owner, name } = splitFullName(asciiLower(pattern));
      if (name === '*') this.owners.add(owner);
      else this.exact.add(`${owner}/${name}`);
    }
  }

  /**
   * `owner/*` covers the repositories whose owner is exactly `owner`: not those of a
   * nested group below it (`owner/sub/name`) nor of an owner that merely starts the same.
   */
  allows(fullName: string): boolean {
    const lower = asciiLower(fullName);
    return this.exact.has(lower) || this.owners.has(splitFullName(lower).owner);
  }

  /**
   * A refusal when the call names a repository outside the list, or one Woodpecker cannot
   * place, or is the use of the tool the list cannot contain (tools.yaml `repositories`).
   */
  async check(
    tool: ToolDefinition,
    args: ToolArgs,
    send: Send,
  ): Promise<CallToolResult | undefined> {
    const policy = tool.repositories;
    if (!policy) return undefined;
    if (policy.refuse && holds(policy.refuse.when, args)) {
      return errorResult(`${tool.name} refused: ${policy.refuse.because}`);
    }
    return this.checkReferences(tool, referencesOf(policy, args), send);
  }

  /**
   * The same check for a repository a handler found itself (in a pasted link, not in its
   * arguments): refused under `tool`'s name, whatever the tool declares.
   */
  checkRepository(
    tool: ToolDefinition,
    repository: { readonly repo_id: number } | { readonly full_name: string },
    send: Send,
  ): Promise<CallToolResult | undefined> {
    const reference: Reference =
      'repo_id' in repository
        ? { kind: 'id', value: repository.repo_id }
        : { kind: 'full_name', value: repository.full_name };
    return this.checkReferences(tool, [reference], send);
  }

  private async checkReferences(
    tool: ToolDefinition,
    references: readonly Reference[],
    send: Send,
  ): Promise<CallToolResult | undefined> {
    try {
      return (await this.allowsAll(references, send)) ? undefined : notFound(tool);
    } catch (error) {
      if (error instanceof LookupFailed)
        return lookupFailed(tool, error.message, 'nothing was sent');
      throw error;
    }
  }

  /**
   * Leaves out of an answer every entry that belongs to a repository outside the list:
   * list items, queue and agent tasks (which carry only a repo_id), secrets, crons. An
   * answer that is itself about such a repository becomes the not-found refusal.
   */
  async filterAnswer(
    tool: ToolDefinition,
    data: Record<string, unknown>,
    send: Send,
  ): Promise<{ data: Record<string, unknown> } | { refused: CallToolResult }> {
    let pruned: unknown;
    try {
      pruned = await this.prune(data, send);
    } catch (error) {
      if (error instanceof LookupFailed)
        return { refused: lookupFailed(tool, error.message, 'its answer is withheld') };
      throw error;
    }
    if (pruned === OUTSIDE) return { refused: notFound(tool) };
    return { data: pruned as Record<string, unknown> };
  }

  private async allowsAll(references: readonly Reference[], send: Send): Promise<boolean> {
    // Names first: a name outside the list is refused without asking Woodpecker anything.
    for (const { kind, value } of references) {
      if ((kind === 'full_name' || kind === 'new_full_name') && !this.allows(String(value)))
        return false;
    }
    // Then what Woodpecker says each reference is now, one after another (a new name is
    // not looked up: it need not exist yet).
    const found: Resolution[] = [];
    for (const reference of references) {
      const resolution = await this.lookUp(reference, send);
      if (resolution) found.push(resolution);
    }
    return found.every(
      (resolution) => resolution !== 'missing' && this.allows(resolution.fullName),
    );
  }

  private lookUp({ kind, value }: Reference, send: Send): Promise<Resolution> | undefined {
    switch (kind) {
      case 'id':
        return this.resolve(send, 'get_repository', { repo_id: value });
      case 'full_name':
        return this.resolve(send, 'lookup_repository', { full_name: value });
      case 'forge_remote_id':
        return this.forgeRepository(String(value), send);
      case 'new_full_name':
        return undefined;
    }
  }

  /** Asks Woodpecker which repository an id or name is now, once per call. */
  private resolve(
    send: Send,
    toolName: 'get_repository' | 'lookup_repository',
    args: ToolArgs,
  ): Promise<Resolution> {
    let cache = this.lookups.get(send);
    if (!cache) {
      cache = new Map();
      this.lookups.set(send, cache);
    }
    const key = `${toolName}:${JSON.stringify(args)}`;
    let pending = cache.get(key);
    if (!pending) {
      pending = this.ask(send, this.requestOf(toolName, args), (body) => fullNameOf(body));
      cache.set(key, pending);
    }
    return pending;
  }

  /** A forge id names a repository Woodpecker may not have yet; the forge list gives its name. */
  private forgeRepository(forgeRemoteId: string, send: Send): Promise<Resolution> {
    const request = this.requestOf('list_repositories', { scope: 'user', include_inactive: true });
    return this.ask(send, request, (body) => {
      if (!Array.isArray(body)) return undefined;
      const match = (body as { forge_remote_id?: unknown }[]).find(
        (repo) => String(repo?.forge_remote_id) === forgeRemoteId,
      );
      return match === undefined ? 'missing' : fullNameOf(match);
    });
  }

  private async ask(
    send: Send,
    request: WoodpeckerRequest,
    read: (body: unknown) => Resolution | string | undefined,
  ): Promise<Resolution> {
    let body: unknown;
    try {
      body = (await send(request)).body;
    } catch (error) {
      if (error instanceof WoodpeckerHttpError && error.status === 404) return 'missing';
      throw new LookupFailed(failureReason(error));
    }
    const answer = read(body);
    if (answer === undefined) throw new LookupFailed('its answer named no repository');
    return typeof answer === 'string' ? { fullName: answer } : answer;
  }

  private requestOf(name: string, args: ToolArgs): WoodpeckerRequest {
    const tool = this.tools.get(name);
    if (!tool?.request) throw new Error(`${name} is needed to enforce WOODPECKER_REPOS`);
    return tool.request(args);
  }

  /** The node without entries of outside repositories, the same node if nothing changed, or OUTSIDE. */
  private async prune(node: unknown, send: Send): Promise<unknown> {
    if (Array.isArray(node)) {
      // In parallel: a feed of fifty repositories is fifty lookups (each id once per call).
      const kept = (await Promise.all(node.map((item) => this.prune(item, send)))).filter(
        (item) => item !== OUTSIDE,
      );
      const unchanged =
        kept.length === node.length && kept.every((item, index) => item === node[index]);
      return unchanged ? node : kept;
    }
    if (node === null || typeof node !== 'object') return node;
    const object = node as Record<string, unknown>;
    if (!(await this.belongsInside(object, send))) return OUTSIDE;
    let copy: Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(object)) {
      const pruned = await this.prune(child, send);
      if (pruned === OUTSIDE) return OUTSIDE; // a single nested reference is what the object is about
      if (pruned !== child) (copy ??= { ...object })[key] = pruned;
    }
    return copy ?? object;
  }

  /**
   * An object that carries a repository id (a task, a feed entry, a secret) is judged by
   * the name Woodpecker gives that id now; labels and cached names can be stale. A
   * repository object itself carries its current full_name.
   */
  private async belongsInside(object: Record<string, unknown>, send: Send): Promise<boolean> {
    const repoId = object.repo_id;
    if (typeof repoId === 'number' && Number.isSafeInteger(repoId) && repoId > 0) {
      const resolution = await this.resolve(send, 'get_repository', { repo_id: repoId });
      return resolution !== 'missing' && this.allows(resolution.fullName);
    }
    return typeof object.full_name !== 'string' || this.allows(object.full_name);
  }
}

/** Whether every argument named in `when` has exactly that value. */
function holds(when: Readonly<Record<string, string | boolean>>, args: ToolArgs): boolean {
  return Object.entries(when).every(([name, value]) => args[name] === value);
}

/**
 * The declared arguments that were given (the input schema has already checked their
 * types): an id as a number, a name as a string, a forge id in whatever form it came.
 */
function referencesOf(policy: RepositoryPolicy, args: ToolArgs): Reference[] {
  const references: Reference[] = [];
  for (const [name, kind] of Object.entries(policy.args)) {
    const value = args[name];
    if (kind === 'id' && typeof value === 'number') references.push({ kind, value });
    else if ((kind === 'full_name' || kind === 'new_full_name') && typeof value === 'string')
      references.push({ kind, value });
    else if (kind === 'forge_remote_id' && value !== undefined)
      references.push({ kind, value: String(value) });
  }
  return references;
}

function fullNameOf(body: unknown): string | undefined {
  const name = (body as { full_name?: unknown } | null | undefined)?.full_name;
  return typeof name === 'string' && name.includes('/') ? name : undefined;
}

/** The same words whether the repository is outside the list or does not exist. */
function notFound(tool: ToolDefinition): CallToolResult {
  return errorResult(
    `${tool.name} failed: Woodpecker has no such repository, or the token cannot see it. Check the ids (list_repositories shows the repositories this server may use).`,
  );
}

function lookupFailed(tool: ToolDefinition, reason: string, consequence: string): CallToolResult {
  return errorResult(
    `${tool.name} refused: WOODPECKER_REPOS limits this server to some repositories, and Woodpecker could not say which repository this is (${reason}), so ${consequence}. Try again once Woodpecker answers (get_server_info shows whether it is healthy).`,
  );
}

function failureReason(error: unknown): string {
  if (error instanceof WoodpeckerHttpError) return `it answered HTTP ${error.status}`;
  if (error instanceof WoodpeckerUnreachableError) return error.reason;
  if (error instanceof WoodpeckerNotApiError) return "its answer was not the API's JSON";
  return 'the lookup failed';
}

/**
 * Forges treat names case-insensitively in ASCII only. Full Unicode lowercasing would
 * let a look-alike through: the Kelvin sign (U+212A) lowercases to "k".
 */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** The owner is everything before the last slash: GitLab's nested groups have several. */
function splitFullName(fullName: string): { owner: string; name: string } {
  const slash = fullName.lastIndexOf('/');
  return { owner: fullName.slice(0, slash), name: fullName.slice(slash + 1) };
}

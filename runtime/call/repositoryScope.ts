// WOODPECKER_REPOS: a repository allowlist enforced here, for operators whose Woodpecker
// token cannot be scoped. A repository outside it answers exactly as one that does not
// exist, and lists leave it out.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolArgs, ToolDefinition, WoodpeckerRequest } from '../tool.js';
import { errorResult } from './toolErrors.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';

type Send = (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>;

export class RepositoryScope {
  private readonly exact = new Set<string>();
  private readonly owners = new Set<string>();
  private readonly namesById = new Map<number, string>();

  constructor(
    patterns: readonly string[],
    private readonly tools: ReadonlyMap<string, ToolDefinition>,
  ) {
    for (const pattern of patterns) {
      const [owner = '', name = ''] = pattern.toLowerCase().split('/');
      if (name === '*') this.owners.add(owner);
      else this.exact.add(`${owner}/${name}`);
    }
  }

  allows(fullName: string): boolean {
    const lower = fullName.toLowerCase();
    const owner = lower.split('/')[0] ?? '';
    return this.exact.has(lower) || this.owners.has(owner);
  }

  /** A not-found refusal when the call names a repository outside the allowlist. */
  async check(tool: ToolDefinition, args: ToolArgs, send: Send): Promise<CallToolResult | undefined> {
    const names: string[] = [];
    if (typeof args.repo_id === 'number') {
      const name = await this.nameOf(args.repo_id, send);
      if (name === undefined) return undefined; // let Woodpecker answer its own 404
      names.push(name);
    }
    if (typeof args.full_name === 'string') names.push(args.full_name);
    if (tool.name === 'move_repository' && typeof args.to === 'string') names.push(args.to);
    if (tool.name === 'activate_repository' && args.forge_remote_id !== undefined) {
      const name = await this.nameOfRemote(String(args.forge_remote_id), send);
      names.push(name ?? '');
    }
    if (names.every((name) => this.allows(name))) return undefined;
    return errorResult(
      `${tool.name} failed: Woodpecker has no such repository, or the token cannot see it. Check the ids (list_repositories shows the repositories this server may use).`,
    );
  }

  /**
   * Lists leave out repositories outside the allowlist. Part of the executor's output
   * step, so it runs before the result limit and the text block is built after it.
   */
  filterAnswer(tool: ToolDefinition, data: Record<string, unknown>): Record<string, unknown> {
    if (tool.output.kind !== 'list' || !Array.isArray(data.items)) return data;
    const items = data.items.filter((item) => {
      const fullName = (item as { full_name?: unknown } | null)?.full_name;
      return typeof fullName !== 'string' || this.allows(fullName);
    });
    return items.length === data.items.length ? data : { ...data, items };
  }

  private async nameOf(repoId: number, send: Send): Promise<string | undefined> {
    const known = this.namesById.get(repoId);
    if (known !== undefined) return known;
    try {
      const response = await send(this.requestOf('get_repository', { repo_id: repoId }));
      const name = (response.body as { full_name?: unknown } | undefined)?.full_name;
      if (typeof name !== 'string') return undefined;
      this.namesById.set(repoId, name);
      return name;
    } catch {
      return undefined;
    }
  }

  private requestOf(name: string, args: ToolArgs): WoodpeckerRequest {
    const tool = this.tools.get(name);
    if (!tool?.request) throw new Error(`${name} is needed to enforce WOODPECKER_REPOS`);
    return tool.request(args);
  }

  private async nameOfRemote(forgeRemoteId: string, send: Send): Promise<string | undefined> {
    try {
      const response = await send(this.requestOf('list_repositories', { scope: 'user', include_inactive: true }));
      const repos = Array.isArray(response.body) ? (response.body as { forge_remote_id?: unknown; full_name?: unknown }[]) : [];
      const match = repos.find((repo) => String(repo.forge_remote_id) === forgeRemoteId);
      return typeof match?.full_name === 'string' ? match.full_name : undefined;
    } catch {
      return undefined;
    }
  }
}

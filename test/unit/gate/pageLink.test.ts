// The web UI link of a dialog: only WOODPECKER_URL and integers enter it.
import { describe, expect, it } from 'vitest';
import { pageLine } from '../../../runtime/gate/pageLink.js';
import type { PageLink } from '../../../runtime/core/tool.js';

const secretPages: readonly PageLink[] = [
  {
    when: { scope: 'repository' },
    where: 'the secrets of repository {repo_id}',
    path: '/repos/{repo_id}/settings/secrets',
  },
  {
    when: { scope: 'organization' },
    where: 'the secrets of organization {org_id}',
    path: '/orgs/{org_id}/settings/secrets',
  },
  { when: { scope: 'global' }, where: 'the global secrets', path: '/admin/secrets' },
];
const base = 'https://ci.example.com';

describe('pageLine', () => {
  it('links the page of the level the call acts on, and no other', () => {
    expect(pageLine(secretPages, { scope: 'repository', repo_id: 21, org_id: 4 }, {}, base)).toBe(
      'Check it in Woodpecker: the secrets of repository 21, https://ci.example.com/repos/21/settings/secrets',
    );
    expect(pageLine(secretPages, { scope: 'organization', org_id: 4 }, {}, base)).toBe(
      'Check it in Woodpecker: the secrets of organization 4, https://ci.example.com/orgs/4/settings/secrets',
    );
    expect(pageLine(secretPages, { scope: 'global', repo_id: 21 }, {}, base)).toBe(
      'Check it in Woodpecker: the global secrets, https://ci.example.com/admin/secrets',
    );
  });

  it('keeps the sub-path Woodpecker is served under', () => {
    const pipeline: PageLink[] = [
      {
        where: 'pipeline {number} of repository {repo_id}',
        path: '/repos/{repo_id}/pipeline/{number}',
      },
    ];
    expect(pageLine(pipeline, { repo_id: 21, number: 42 }, undefined, 'https://host/ci')).toBe(
      'Check it in Woodpecker: pipeline 42 of repository 21, https://host/ci/repos/21/pipeline/42',
    );
  });

  it('fills a placeholder from an integer id in the read answer', () => {
    const user: PageLink[] = [{ where: 'account {current.id}', path: '/admin/users' }];
    expect(pageLine(user, {}, { id: 7, login: 'x' }, base)).toBe(
      'Check it in Woodpecker: account 7, https://ci.example.com/admin/users',
    );
  });

  // An argument that is not a non-negative integer (a name with `..` or `/`, a numeric
  // string, a negative or fractional number) drops the line: nothing but digits enters a path.
  it.each([['../../admin'], ['a/b'], ['21/../../x'], ['21'], [-1], [1.5], [Number.NaN], [null]])(
    'drops the link when an id is %j',
    (repoId) => {
      expect(
        pageLine(secretPages, { scope: 'repository', repo_id: repoId as never }, {}, base),
      ).toBeUndefined();
    },
  );

  it('drops the link when an answer field is text, not an id', () => {
    const user: PageLink[] = [{ where: 'account {current.id}', path: '/admin/users' }];
    expect(pageLine(user, {}, { id: '../evil' }, base)).toBeUndefined();
  });

  it('says nothing when no entry fits the arguments, and names the page without a URL', () => {
    expect(pageLine(secretPages, { scope: 'instance' }, {}, base)).toBeUndefined();
    expect(pageLine(undefined, {}, {}, base)).toBeUndefined();
    expect(pageLine(secretPages, { scope: 'global' }, {}, undefined)).toBe(
      "Where to check it: the global secrets in Woodpecker's web UI.",
    );
  });

  it("links an organization's page when org_id came, the server's otherwise (delete_agent)", () => {
    const agentPages: PageLink[] = [
      { where: 'the agents of organization {org_id}', path: '/orgs/{org_id}/settings/agents' },
      { where: 'the agents of this server', path: '/admin/agents' },
    ];
    expect(pageLine(agentPages, { agent_id: 3, org_id: 4 }, {}, base)).toBe(
      'Check it in Woodpecker: the agents of organization 4, https://ci.example.com/orgs/4/settings/agents',
    );
    expect(pageLine(agentPages, { agent_id: 3 }, {}, base)).toBe(
      'Check it in Woodpecker: the agents of this server, https://ci.example.com/admin/agents',
    );
    // Given but not an id: no line at all, never the server's page in its place.
    expect(pageLine(agentPages, { agent_id: 3, org_id: '4/../..' as never }, {}, base)).toBe(
      undefined,
    );
  });
});

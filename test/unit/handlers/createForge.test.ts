// create_forge answers through the forge view, as update_forge and get_forge do (issue 35,
// item 7: every write that returns a Woodpecker object gets the views too): no nulls or
// empty fields, never the OAuth secret, and already_existed, this server's own field,
// whether the forge was found or made. Woodpecker is a MockAgent; the client shows no
// dialog, so the call goes the two-call token way.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const SECRET = 'oauth-secret-canary-5d1f';
const woodpecker = useMockWoodpecker();

/** A forge as Woodpecker's JSON may carry it: empties, and (a careless proxy) the secret. */
const rawForge = (id: number) => ({
  id,
  type: 'gitea',
  url: 'https://git.example.com',
  client: 'ci',
  oauth_host: '',
  skip_verify: false,
  additional_options: {},
  oauth_client_secret: SECRET,
});

async function createForge(existing: object[]): Promise<{ answer: CallToolResult; posts: number }> {
  const pool = woodpecker.agent().get(MOCK_ORIGIN);
  const seen = { posts: 0 };
  pool
    .intercept({ path: (path) => path.startsWith('/api/forges?'), method: 'GET' })
    .reply(200, existing, JSON_HEADERS)
    .persist();
  pool
    .intercept({ path: '/api/forges', method: 'POST' })
    .reply(() => {
      seen.posts += 1;
      return { statusCode: 200, data: JSON.stringify(rawForge(4)), responseOptions: JSON_HEADERS };
    })
    .persist();
  const executor = mockExecutor(woodpecker.client());
  const tool = toolsByName.get('create_forge')!;
  const args = {
    type: 'gitea',
    url: 'https://git.example.com',
    client: 'ci',
    oauth_client_secret: SECRET,
  };
  const first = (await executor.run(tool, args, TOKEN_PATH_CALL)) as CallToolResult;
  const token = (first.structuredContent as { confirm_token?: string }).confirm_token;
  expect(token, JSON.stringify(first)).toBeTypeOf('string');
  const answer = (await executor.run(
    tool,
    { ...args, confirm_token: token },
    TOKEN_PATH_CALL,
  )) as CallToolResult;
  expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
  return { answer, posts: seen.posts };
}

describe('create_forge answers through the forge view', () => {
  it('a new forge: the fields a reader needs, no empties, no secret', async () => {
    const { answer, posts } = await createForge([]);
    expect(posts).toBe(1);
    expect(answer.structuredContent).toEqual({
      id: 4,
      type: 'gitea',
      url: 'https://git.example.com',
      client: 'ci',
      already_existed: false,
    });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
  });

  it('an identical forge that exists: the same view, already_existed, no POST', async () => {
    const { answer, posts } = await createForge([rawForge(2)]);
    expect(posts).toBe(0);
    expect(answer.structuredContent).toEqual({
      id: 2,
      type: 'gitea',
      url: 'https://git.example.com',
      client: 'ci',
      already_existed: true,
    });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
  });
});

import { describe, expect, it } from 'vitest';
import { listEnvelope, redact, REDACTED } from '../../../runtime/output/answer.js';

describe('redact', () => {
  const none = { redact: [], reveal: [] };
  it('replaces credentials at any depth', () => {
    const answer = [
      {
        id: 1,
        name: 'runner',
        token: 'agent-secret-token',
        nested: { oauth_client_secret: 'shh', password: 'pw' },
      },
    ];
    expect(redact(answer, none)).toEqual([
      {
        id: 1,
        name: 'runner',
        token: REDACTED,
        nested: { oauth_client_secret: REDACTED, password: REDACTED },
      },
    ]);
  });
  it('leaves empty values alone (nothing to hide) and keeps ordinary fields', () => {
    expect(redact({ token: '', password: null, name: 'x' }, none)).toEqual({
      token: '',
      password: null,
      name: 'x',
    });
  });
  it('reveals only what the manifest names (create_agent token)', () => {
    expect(
      redact({ token: 'new-agent-token', access_token: 'x' }, { redact: [], reveal: ['token'] }),
    ).toEqual({ token: 'new-agent-token', access_token: REDACTED });
  });
  it('redacts extra fields a tool names', () => {
    expect(redact({ value: 'v', name: 'n' }, { redact: ['value'], reveal: [] })).toEqual({
      value: REDACTED,
      name: 'n',
    });
  });
});

describe('listEnvelope', () => {
  it('says a full page may have more', () => {
    const envelope = listEnvelope(
      Array.from({ length: 50 }, (_, i) => i),
      {},
    );
    expect(envelope).toMatchObject({ page: 1, per_page: 50, may_have_more: true });
    expect(envelope.note).toContain('page 2');
  });
  it('a route without paging never claims more', () => {
    expect(
      listEnvelope(
        Array.from({ length: 80 }, (_, i) => i),
        {},
        false,
      ),
    ).toMatchObject({ may_have_more: false });
  });
  it('a short page is the last', () => {
    expect(listEnvelope([1, 2], { page: 3, per_page: 10 })).toEqual({
      items: [1, 2],
      page: 3,
      per_page: 10,
      may_have_more: false,
    });
  });
  it('caps per_page at Woodpecker’s silent limit of 50', () => {
    expect(listEnvelope([], { per_page: 500 }).per_page).toBe(50);
  });
  it('treats a null answer (Go nil slice) as empty', () => {
    expect(listEnvelope(null, {}).items).toEqual([]);
  });
});

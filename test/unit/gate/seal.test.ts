import { describe, expect, it } from 'vitest';
import { approvalFingerprint, principalDigest } from '../../../runtime/gate/fingerprint.js';
import { Sealer } from '../../../runtime/gate/seal.js';
import type { GuardSpec } from '../../../runtime/core/tool.js';

const payload = {
  kind: 'question',
  tool: 'approve_pipeline',
  fingerprint: 'fp',
  principal: 'me',
} as const;

describe('Sealer', () => {
  it('opens what it sealed', () => {
    const sealer = new Sealer(undefined, 60_000);
    expect(sealer.open(sealer.seal(payload))).toEqual({
      ok: true,
      payload,
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/),
      expiresAt: expect.any(Number),
    });
  });

  it('gives each seal its own nonce (what a single-use approval is spent under)', () => {
    const sealer = new Sealer(undefined, 60_000);
    const nonces = new Set(
      [1, 2, 3].map((_) => {
        const opened = sealer.open(sealer.seal(payload));
        return opened.ok ? opened.nonce : '';
      }),
    );
    expect(nonces.size).toBe(3);
  });

  it('refuses a seal whose payload was changed', () => {
    const sealer = new Sealer(undefined, 60_000);
    const [version, encoded, mac] = sealer.seal(payload).split('.');
    const body = JSON.parse(Buffer.from(encoded!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    body.fingerprint = 'other';
    const tampered = `${version}.${Buffer.from(JSON.stringify(body)).toString('base64url')}.${mac}`;
    expect(sealer.open(tampered)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a seal made with another key', () => {
    const ours = new Sealer(Buffer.alloc(32, 1), 60_000);
    const theirs = new Sealer(Buffer.alloc(32, 2), 60_000);
    expect(ours.open(theirs.seal(payload)).ok).toBe(false);
  });

  it('opens seals of a replica that shares the key', () => {
    const key = Buffer.from('a shared key of at least thirty-two bytes');
    expect(new Sealer(key, 60_000).open(new Sealer(key, 60_000).seal(payload)).ok).toBe(true);
  });

  it('refuses an expired seal', () => {
    let now = 1_000_000;
    const sealer = new Sealer(undefined, 300_000, () => now);
    const sealed = sealer.seal(payload);
    now += 299_999;
    expect(sealer.open(sealed).ok).toBe(true);
    now += 2;
    expect(sealer.open(sealed)).toEqual({ ok: false, reason: 'expired' });
  });

  it.each([undefined, 42, '', 'garbage', 'w1.x', 'w2.a.b', 'w1.e30.'])('refuses %j', (value) => {
    expect(new Sealer(undefined, 60_000).open(value).ok).toBe(false);
  });
});

const guard = (targets: string[], bindBody: boolean): GuardSpec => ({
  targets,
  bindBody,
  reasons: () => ['always asks'],
  dialog: () => '',
  condition: 'always',
});

describe('approvalFingerprint', () => {
  it('binds targets in order: (5, 12) is not (12, 5)', () => {
    const g = guard(['repo_id', 'number'], false);
    expect(approvalFingerprint('approve_pipeline', g, { repo_id: 5, number: 12 })).not.toBe(
      approvalFingerprint('approve_pipeline', g, { repo_id: 12, number: 5 }),
    );
  });

  it('binds the tool', () => {
    const g = guard(['repo_id', 'number'], false);
    expect(approvalFingerprint('approve_pipeline', g, { repo_id: 5, number: 12 })).not.toBe(
      approvalFingerprint('delete_pipeline', g, { repo_id: 5, number: 12 }),
    );
  });

  it('binds the body where the call decides more than its target', () => {
    const g = guard(['repo_id'], true);
    const narrow = approvalFingerprint('update_repository', g, {
      repo_id: 5,
      trusted_network: true,
    });
    const wider = approvalFingerprint('update_repository', g, {
      repo_id: 5,
      trusted_network: true,
      visibility: 'public',
    });
    expect(narrow).not.toBe(wider);
  });

  it('ignores the confirm_token and the order of keys', () => {
    const g = guard(['repo_id'], true);
    expect(
      approvalFingerprint('update_repository', g, { repo_id: 5, a: 1, b: { y: 1, x: 2 } }),
    ).toBe(
      approvalFingerprint('update_repository', g, {
        b: { x: 2, y: 1 },
        confirm_token: 'w1.x.y',
        a: 1,
        repo_id: 5,
      }),
    );
  });

  it('does not bind non-target arguments when the body is not bound', () => {
    const g = guard(['repo_id', 'number'], false);
    expect(approvalFingerprint('approve_pipeline', g, { repo_id: 5, number: 12, extra: 1 })).toBe(
      approvalFingerprint('approve_pipeline', g, { repo_id: 5, number: 12 }),
    );
  });

  it('principal digests differ per token and never contain it', () => {
    expect(principalDigest('token-a')).not.toBe(principalDigest('token-b'));
    expect(principalDigest('token-a')).not.toContain('token-a');
  });
});

describe('two-call tokens (short: the model repeats them)', () => {
  const binding = {
    kind: 'token',
    tool: 'delete_secret',
    fingerprint: 'fp-of-these-arguments',
    principal: 'me',
  } as const;

  it('is at most 100 characters, of URL-safe characters only', () => {
    const token = new Sealer(undefined, 300_000).issueToken(binding);
    expect(token.length).toBeLessThanOrEqual(100);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('opens for the same binding, with a nonce per token', () => {
    const sealer = new Sealer(undefined, 300_000);
    const first = sealer.openToken(sealer.issueToken(binding), binding);
    const second = sealer.openToken(sealer.issueToken(binding), binding);
    expect(first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: true });
    expect(first.ok && second.ok && first.nonce !== second.nonce).toBe(true);
  });

  it.each([
    ['another tool', { tool: 'delete_registry' }],
    ['other arguments', { fingerprint: 'fp-of-wider-arguments' }],
    ['another account', { principal: 'someone else' }],
    ['a dialog question', { kind: 'question' }],
  ] as const)('does not open for %s', (_, change) => {
    const sealer = new Sealer(undefined, 300_000);
    const token = sealer.issueToken(binding);
    expect(sealer.openToken(token, { ...binding, ...change })).toEqual({
      ok: false,
      reason: 'other-call',
    });
  });

  it('tells a token of another key from one for another call', () => {
    const ours = new Sealer(Buffer.alloc(32, 1), 300_000);
    const theirs = new Sealer(Buffer.alloc(32, 2), 300_000);
    expect(ours.openToken(theirs.issueToken(binding), binding)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    const shared = Buffer.from('a shared key of at least thirty-two bytes');
    const replica = new Sealer(shared, 300_000);
    expect(new Sealer(shared, 300_000).openToken(replica.issueToken(binding), binding).ok).toBe(
      true,
    );
  });

  it('expires', () => {
    let now = 1_700_000_000_000;
    const sealer = new Sealer(undefined, 300_000, () => now);
    const token = sealer.issueToken(binding);
    now += 299_000;
    expect(sealer.openToken(token, binding).ok).toBe(true);
    now += 2_000;
    expect(sealer.openToken(token, binding)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses every changed character', () => {
    const sealer = new Sealer(undefined, 300_000);
    const token = sealer.issueToken(binding);
    for (let index = 0; index < token.length; index++) {
      const char = token[index] === 'A' ? 'B' : 'A';
      const changed = `${token.slice(0, index)}${char}${token.slice(index + 1)}`;
      expect(sealer.openToken(changed, binding).ok, `character ${index}`).toBe(false);
    }
  });

  it.each([undefined, 42, '', 'garbage', 'w1.x.y', 'x'.repeat(5000)])('refuses %j', (value) => {
    expect(new Sealer(undefined, 60_000).openToken(value, binding)).toMatchObject({ ok: false });
  });
});

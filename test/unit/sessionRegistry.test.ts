// Session limits with a clock the test controls: expiry, a credential's cap, the server's
// cap, busy sessions, and reservations that never became a session.
import { afterEach, describe, expect, it } from 'vitest';
import { CredentialHasher } from '../../runtime/serve/authorization.js';
import { SessionRegistry, type Admission } from '../../runtime/serve/sessionRegistry.js';

class FakeTransport {
  closed = false;
  async close(): Promise<void> {
    this.closed = true;
  }
}

const hasher = new CredentialHasher();
const alice = hasher.hash({ kind: 'bearer', token: 'alice' });
const bob = hasher.hash({ kind: 'bearer', token: 'bob' });
const registries: SessionRegistry<FakeTransport>[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.closeAll();
});

function setup(limits: { idleMs?: number; maxSessions?: number; perCredential?: number } = {}) {
  let now = 1_000_000;
  const registry = new SessionRegistry<FakeTransport>(
    { idleMs: 60_000, maxSessions: 10, perCredential: 3, ...limits },
    () => now,
  );
  registries.push(registry);
  let next = 0;
  const open = (credential: Buffer) => {
    const admission = registry.admit(credential);
    if (!admission.ok) return { admission, id: undefined, transport: undefined };
    const id = `s${next++}`;
    const transport = new FakeTransport();
    admission.reservation.commit(id, transport);
    return { admission, id, transport };
  };
  return { registry, open, advance: (ms: number) => (now += ms) };
}

function refusal(admission: Admission<FakeTransport>) {
  return admission.ok ? 'admitted' : admission.status;
}

describe('SessionRegistry', () => {
  it('finds a session only with the credential that opened it', () => {
    const { registry, open } = setup();
    const { id } = open(alice);
    expect(registry.lookup(id!, alice).kind).toBe('found');
    expect(registry.lookup(id!, bob).kind).toBe('other-credential');
    expect(registry.lookup('nope', alice).kind).toBe('unknown');
  });

  it('closes a session idle past the limit, and not one that is busy', () => {
    const { registry, open, advance } = setup();
    const idle = open(alice);
    const busy = open(alice);
    const leave = registry.enter(busy.id);
    advance(60_001);
    expect(registry.lookup(idle.id!, alice).kind).toBe('unknown');
    expect(idle.transport!.closed).toBe(true);
    expect(registry.lookup(busy.id!, alice).kind).toBe('found');
    leave();
    advance(60_001);
    expect(registry.lookup(busy.id!, alice).kind).toBe('unknown');
  });

  it("over a credential's cap, replaces that credential's longest-idle session", () => {
    const { registry, open, advance } = setup();
    const sessions = [open(alice), open(alice), open(alice)];
    advance(10);
    registry.lookup(sessions[0]!.id!, alice); // used again: now the second is the longest idle
    const fourth = open(alice);
    expect(fourth.admission.ok).toBe(true);
    expect(sessions.map((session) => session.transport!.closed)).toEqual([false, true, false]);
    expect(registry.size).toBe(3);
  });

  it('refuses only the credential whose sessions are all busy', () => {
    const { registry, open } = setup();
    for (let i = 0; i < 3; i++) registry.enter(open(alice).id);
    expect(refusal(open(alice).admission)).toBe(429);
    expect(open(bob).admission.ok).toBe(true);
  });

  it('counts reservations not yet committed, and frees a released one', () => {
    const { registry } = setup({ perCredential: 2 });
    const first = registry.admit(alice);
    const second = registry.admit(alice);
    expect(refusal(registry.admit(alice))).toBe(429);
    if (first.ok) first.reservation.release();
    expect(registry.admit(alice).ok).toBe(true);
    expect(second.ok).toBe(true);
  });

  it('refuses everyone with 503 only when the server is full', () => {
    const { open } = setup({ maxSessions: 4, perCredential: 2 });
    open(alice);
    open(alice);
    open(bob);
    open(bob);
    const carol = hasher.hash({ kind: 'bearer', token: 'carol' });
    expect(refusal(open(carol).admission)).toBe(503);
    // Alice over her own cap replaces her own session instead of being refused.
    expect(open(alice).admission.ok).toBe(true);
  });
});

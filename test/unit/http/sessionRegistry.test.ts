// Session limits with a clock the test controls: expiry, an account's cap, the server's
// cap, busy sessions, and reservations that never became a session.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CredentialHasher } from '../../../runtime/http/authorization.js';
import { SessionRegistry, type Admission } from '../../../runtime/http/sessionRegistry.js';

class FakeTransport {
  closed = false;
  async close(): Promise<void> {
    this.closed = true;
  }
}

const hasher = new CredentialHasher();
const alice = hasher.hash({ kind: 'bearer', token: 'alice' });
const bob = hasher.hash({ kind: 'bearer', token: 'bob' });
// Each test credential is its own account unless a test says otherwise.
const accountOf = new Map<Buffer, string>([
  [alice, 'account:alice'],
  [bob, 'account:bob'],
]);
const registries: SessionRegistry<FakeTransport>[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const registry of registries.splice(0)) await registry.closeAll();
});

function setup(
  limits: { idleMs?: number; maxSessions?: number; perAccount?: number } = {},
  clock?: () => number,
) {
  let now = 1_000_000;
  const registry = new SessionRegistry<FakeTransport>(
    { idleMs: 60_000, maxSessions: 10, perAccount: 3, ...limits },
    clock ?? (() => now),
  );
  registries.push(registry);
  let next = 0;
  const open = (credential: Buffer, account = accountOf.get(credential) ?? 'account:other') => {
    const admission = registry.admit(credential, account);
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
    const { registry } = setup({ perAccount: 2 });
    const first = registry.admit(alice, 'account:alice');
    const second = registry.admit(alice, 'account:alice');
    expect(refusal(registry.admit(alice, 'account:alice'))).toBe(429);
    if (first.ok) first.reservation.release();
    expect(registry.admit(alice, 'account:alice').ok).toBe(true);
    expect(second.ok).toBe(true);
  });

  it('refuses everyone with 503 only when the server is full', () => {
    const { open } = setup({ maxSessions: 4, perAccount: 2 });
    open(alice);
    open(alice);
    open(bob);
    open(bob);
    const carol = hasher.hash({ kind: 'bearer', token: 'carol' });
    expect(refusal(open(carol, 'account:carol').admission)).toBe(503);
    // Alice over her own cap replaces her own session instead of being refused.
    expect(open(alice).admission.ok).toBe(true);
  });

  it('at the server-wide limit answers 503 and closes nobody else, with a short idle time too', () => {
    // The security test's setting: 20 s idle, 3 per account, 5 in all; the sweeper runs.
    vi.useFakeTimers();
    const { registry, open } = setup({ idleMs: 20_000, maxSessions: 5, perAccount: 3 }, () =>
      Date.now(),
    );
    const victim = open(bob);
    vi.advanceTimersByTime(5_000);
    const mallory = (n: number) => hasher.hash({ kind: 'bearer', token: `mallory-${n}` });
    const outcomes: (number | string)[] = [];
    for (let n = 0; n < 9; n++) {
      // Three accounts of the attacker's, three sessions each, half a second apart.
      outcomes.push(refusal(open(mallory(n), `account:mallory-${Math.floor(n / 3)}`).admission));
      vi.advanceTimersByTime(500);
      expect(victim.transport!.closed).toBe(false);
    }
    // The victim and the first account's three, one of the second's; then the server is full.
    expect(outcomes).toEqual([...Array<string>(4).fill('admitted'), ...Array<number>(5).fill(503)]);
    expect(registry.size).toBe(5);
    expect(registry.lookup(victim.id!, bob).kind).toBe('found');
    // Only its own idle time closes it (the sweeper's next round, at the latest).
    vi.advanceTimersByTime(19_000);
    expect(victim.transport!.closed).toBe(false);
    vi.advanceTimersByTime(11_000);
    expect(victim.transport!.closed).toBe(true);
    expect(registry.lookup(victim.id!, bob).kind).toBe('unknown');
  });

  it('holds maxSessions sessions, and a full server leaves every session open', () => {
    const { registry, open, advance } = setup({ idleMs: 1_000, maxSessions: 4, perAccount: 3 });
    const opened = [
      open(alice),
      open(bob),
      open(hasher.hash({ kind: 'none' }), 'credential:anonymous'),
    ];
    advance(900); // close to, but not past, the idle time
    const fourth = open(hasher.hash({ kind: 'bearer', token: 'dave' }), 'account:dave');
    expect(fourth.admission.ok).toBe(true);
    expect(registry.size).toBe(4);
    expect(
      refusal(open(hasher.hash({ kind: 'bearer', token: 'erin' }), 'account:erin').admission),
    ).toBe(503);
    expect([...opened, fourth].map((session) => session.transport!.closed)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("counts an account's sessions together, whichever of its tokens opened them", () => {
    const { registry, open } = setup({ perAccount: 2 });
    // Two strings Woodpecker takes for the same token (or two tokens of one account).
    const formA = hasher.hash({ kind: 'bearer', token: 'alice-form-a' });
    const formB = hasher.hash({ kind: 'bearer', token: 'alice-form-b' });
    const first = open(formA, 'account:alice');
    const second = open(formB, 'account:alice');
    const third = open(formB, 'account:alice');
    expect(third.admission.ok).toBe(true);
    // The account's longest-idle session made room, even though another string opened it.
    expect([first, second, third].map((session) => session.transport!.closed)).toEqual([
      true,
      false,
      false,
    ]);
    expect(registry.size).toBe(2);
    // The binding stays with the exact credential: the other form cannot use it.
    expect(registry.lookup(second.id!, formA).kind).toBe('other-credential');
    expect(registry.lookup(second.id!, formB).kind).toBe('found');
  });

  it("refuses with 429 when all of an account's sessions are busy, across its tokens", () => {
    const { registry, open } = setup({ perAccount: 2 });
    const formA = hasher.hash({ kind: 'bearer', token: 'alice-form-a' });
    const formB = hasher.hash({ kind: 'bearer', token: 'alice-form-b' });
    registry.enter(open(formA, 'account:alice').id);
    registry.enter(open(formB, 'account:alice').id);
    expect(refusal(open(formB, 'account:alice').admission)).toBe(429);
    expect(open(bob).admission.ok).toBe(true);
  });
});

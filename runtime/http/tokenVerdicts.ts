// Whether Woodpecker accepts a bearer token, remembered for a minute per credential (its
// keyed hash, never the token): a 2026-07-28 client sends its token on every request,
// and asking Woodpecker each time would double every call. A verdict that could not be
// had (Woodpecker unreachable) is not remembered.
export type Verdict = string | false | undefined;

const REMEMBER_MS = 60_000;
const MOST = 1_000;

export class TokenVerdicts {
  private readonly known = new Map<string, { verdict: Promise<Verdict>; until: number }>();

  constructor(
    private readonly verify: ((token: string) => Promise<Verdict>) | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {}

  of(token: string, credential: Buffer): Promise<Verdict> {
    if (!this.verify) return Promise.resolve(undefined);
    const key = credential.toString('base64');
    const cached = this.known.get(key);
    if (cached && cached.until > this.now()) return cached.verdict;
    const verdict = this.verify(token).catch(() => undefined);
    this.known.set(key, { verdict, until: this.now() + REMEMBER_MS });
    if (this.known.size > MOST) this.known.delete(this.known.keys().next().value!);
    void verdict.then((settled) => {
      if (settled === undefined) this.known.delete(key);
    });
    return verdict;
  }
}

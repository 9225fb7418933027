// Health endpoints for load balancers and orchestrators. They answer without a token and
// before the Host and Origin checks (a Kubernetes probe names the pod's IP, a balancer its
// own check host), so they say nothing a stranger could use: whether this process serves,
// and whether Woodpecker answers its own health check. No URL, version or error text.
import type { ServerResponse } from 'node:http';

/** What `/readyz` reports about Woodpecker. */
export type WoodpeckerHealth = 'reachable' | 'unreachable' | 'not configured';

export const LIVENESS_PATH = '/healthz';
export const READINESS_PATH = '/readyz';

export function isHealthPath(path: string): boolean {
  return path === LIVENESS_PATH || path === READINESS_PATH;
}

/**
 * `/healthz`: 200 while this process accepts calls, 503 once it is shutting down (so a
 * balancer stops sending it new work during the grace time). Never asks Woodpecker: a
 * Woodpecker outage must not make an orchestrator restart every replica.
 * `/readyz`: the same, plus Woodpecker's own `/healthz`; 503 when it does not answer.
 */
export async function answerHealth(
  path: string,
  res: ServerResponse,
  state: {
    readonly draining: boolean;
    readonly checkWoodpecker: (() => Promise<WoodpeckerHealth>) | undefined;
  },
): Promise<void> {
  const status = state.draining ? 'shutting down' : 'ok';
  if (path === LIVENESS_PATH) {
    write(res, state.draining ? 503 : 200, { status });
    return;
  }
  const woodpecker = state.checkWoodpecker ? await state.checkWoodpecker() : 'not configured';
  write(res, !state.draining && woodpecker === 'reachable' ? 200 : 503, { status, woodpecker });
}

/** How long one answer about Woodpecker stands for every `/readyz` that asks. */
export const WOODPECKER_CHECK_TTL_MS = 2_000;

/**
 * `/readyz` needs no token, so anyone who reaches the port may ask it as often as they
 * like; each answer is reused for a short while, so that asking it does not turn into as
 * many requests to Woodpecker.
 */
export function sharedCheck(
  check: () => Promise<WoodpeckerHealth>,
  ttlMs = WOODPECKER_CHECK_TTL_MS,
  now = Date.now,
): () => Promise<WoodpeckerHealth> {
  let last: { readonly at: number; readonly answer: Promise<WoodpeckerHealth> } | undefined;
  return () => {
    if (!last || now() - last.at >= ttlMs) last = { at: now(), answer: check() };
    return last.answer;
  };
}

function write(res: ServerResponse, status: number, body: Record<string, string>): void {
  res
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(`${JSON.stringify(body)}\n`);
}

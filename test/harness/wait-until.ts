/** Throw this from a check to stop waiting at once (e.g. the process being waited for died). */
export class GiveUpWaiting extends Error {}

/**
 * Polls check() until it returns a value other than undefined, or throws after timeoutMs,
 * or gives up at the next poll once `signal` is aborted (a demo stopped mid-start).
 */
export async function waitUntil<T>(
  description: string,
  check: () => Promise<T | undefined>,
  {
    timeoutMs,
    intervalMs = 200,
    signal,
  }: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal | undefined },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new GiveUpWaiting(`stopped while waiting for ${description}`);
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof GiveUpWaiting) throw error;
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${cause}`);
}

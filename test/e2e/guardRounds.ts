// One round of a guarded call as a client sees it: a raw tools/call that may answer
// input_required, the question it carries, a seal or token changed by one character, and
// a server clock tests can move.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { McpSession } from './mcpSession.js';

export interface InputRequired {
  resultType: 'input_required';
  inputRequests?: Record<string, { method?: string; params?: { message?: string } }>;
  requestState?: string;
}

export type RawCallResult = InputRequired | (CallToolResult & { resultType?: undefined });

export const APPROVE_RESPONSE = { confirm: { action: 'accept', content: { approve: true } } };

/** One tools/call leg on a manual (autoFulfill: false) 2026-07-28 session. */
export async function rawCall(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
  retry: { requestState?: string; inputResponses?: Record<string, unknown> } = {},
): Promise<RawCallResult> {
  return (await session.client.request(
    { method: 'tools/call', params: { name, arguments: args, ...retry } },
    { allowInputRequired: true },
  )) as unknown as RawCallResult;
}

export function isInputRequired(result: RawCallResult): result is InputRequired {
  return result.resultType === 'input_required';
}

/** Asserts a fresh question: input_required with a requestState and a confirm dialog; returns both. */
export function expectQuestion(
  result: RawCallResult,
  ids: readonly number[] = [],
  shows: readonly string[] = [],
): { requestState: string; message: string } {
  expect(
    isInputRequired(result),
    `expected input_required, got ${JSON.stringify(result).slice(0, 400)}`,
  ).toBe(true);
  const question = result as InputRequired;
  expect(typeof question.requestState).toBe('string');
  const request = question.inputRequests?.confirm;
  expect(request?.method).toBe('elicitation/create');
  const message = String(request?.params?.message ?? '');
  for (const id of ids) expect(message).toMatch(new RegExp(`\\b${id}\\b`));
  for (const fact of shows) expect(message).toContain(fact);
  return { requestState: question.requestState!, message };
}

/** Changes one character of the seal's payload, keeping its shape. */
export function tamper(sealed: string): string {
  // A two-call token is one base64url run (its MAC covers every byte); a sealed state is
  // version.payload.mac.
  if (!sealed.includes('.')) {
    const middle = Math.floor(sealed.length / 2);
    return (
      sealed.slice(0, middle) + (sealed[middle] === 'A' ? 'B' : 'A') + sealed.slice(middle + 1)
    );
  }
  const [version, payload, mac] = sealed.split('.');
  const flipped = payload!.slice(0, -2) + (payload!.at(-2) === 'A' ? 'B' : 'A') + payload!.at(-1);
  return [version, flipped, mac].join('.');
}

/** A server clock tests can move: openSession({ now: clock.now }). */
export class Clock {
  private offsetMs = 0;
  readonly now = (): number => Date.now() + this.offsetMs;
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
  reset(): void {
    this.offsetMs = 0;
  }
}

// The gate: the only code that decides whether a guarded call proceeds.
//
// 1. The tool's compiled guard says whether this call must ask (the harmless direction
//    of a conditional guard applies at once).
// 2. If it must, a person is asked. Both protocol revisions take one code path: the call
//    returns input_required with the question and a sealed requestState. On 2026-07-28
//    the client shows the dialog and retries with the answer; on a 2025-11-25 connection
//    the SDK pushes the same question as elicitation/create and re-enters the handler
//    with the answer. A client that cannot show a dialog, or ELICITATION=false, gets the
//    two-call token instead.
// 3. Every approval is bound to the call's fingerprint and the principal, and expires.
//    The fingerprint includes the object's own id where the guard reads it (`identity`),
//    and every round reads it again: an approval for the secret with id 7 does not
//    delete the secret with id 9 that took its name in between.
import { inputRequired, inputResponse } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ElicitRequestFormParams,
  InputRequiredResult,
} from '@modelcontextprotocol/server';
import { errorResult } from '../core/errors.js';
import { GATE_ARGUMENT, type GuardSpec, type ToolArgs, type ToolDefinition } from '../core/tool.js';
import { approvalFingerprint } from './fingerprint.js';
import { valueAt } from './guardPredicates.js';
import type { Sealer, SealKeySource, SealPayload, TokenOpenResult } from './seal.js';
import type { LevelFinding, Look } from '../core/tool.js';
import type { SpentApprovals } from './spentApprovals.js';
import { describeLevels } from './sameNameLevels.js';
import { pageLine } from './pageLink.js';

export const APPROVAL_TTL_SECONDS = 300;

/** How the call was allowed to proceed; recorded in the audit log. */
export type Approval = 'not guarded' | 'harmless direction' | 'dialog' | 'sealed answer' | 'token';

/** What the connection this call arrived on can do. Built per call by the server. */
export interface Channel {
  /** The protocol revision the call came in on: dialogs are pushed on 2025, sealed on 2026. */
  readonly revision: '2025-11-25' | '2026-07-28';
  /** The client declared form elicitation (per connection on 2025, per request on 2026). */
  readonly clientCanElicit: boolean;
  /** What the answering round carries (the client's retry, or the SDK's 2025 re-entry). */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly requestState: string | undefined;
}

export interface GateRequest {
  readonly tool: ToolDefinition;
  readonly args: ToolArgs;
  readonly principal: string;
  readonly channel: Channel;
  /** Performs the guard's read (a GET) and returns the decoded answer. */
  readonly readCurrent: (guard: GuardSpec, args: ToolArgs) => Promise<unknown>;
  /** Performs one of the reads a predicate declared; a 404 or a refusal is an answer too. */
  readonly look: Look;
  /** A question the operator's policy adds (runtime/policy/), asked even where the guard would not. */
  readonly added?: AddedQuestion;
  /** Whether Woodpecker calls the caller an instance admin; undefined when it cannot tell. */
  readonly callerIsAdmin?: () => Promise<boolean | undefined>;
}

/**
 * A question on top of the manifest's. Its approval is bound to every argument, and for a
 * call that is not idempotent (`singleUse`) it lets exactly one call through.
 */
export interface AddedQuestion {
  readonly text: string;
  readonly singleUse: boolean;
  /**
   * The id of the object the policy read for this call (the pipeline a restart re-runs),
   * bound like a guard's `identity`: the same number naming another object asks afresh.
   */
  readonly identity?: number;
}

export type GateOutcome =
  | {
      readonly proceed: true;
      readonly approval: Approval;
      /** What the guard's read returned, handed to the handler so it need not read again. */
      readonly current?: unknown;
    }
  | {
      readonly proceed: false;
      readonly outcome: 'asked' | 'declined' | 'cancelled' | 'token issued' | 'refused';
      readonly result: CallToolResult | InputRequiredResult;
    };

export interface GateOptions {
  readonly elicitationEnabled: boolean;
  readonly sealer: Sealer;
  /** Single-use approvals already redeemed; absent, single-use questions cannot be asked. */
  readonly spent?: SpentApprovals;
  /**
   * WOODPECKER_URL as configured (normalised, no trailing slash): the base of the web UI
   * link a dialog shows. Never taken from a request.
   */
  readonly webUrl?: string;
}

const ANSWER_KEY = 'confirm';

type TokenReason = 'server' | 'client';

// Why no person was asked, said plainly: the text names whoever did not ask.
const TOKEN_REASONS: Record<TokenReason, { text: string; reason: string }> = {
  server: {
    text: 'woodpecker-ci-mcp did not ask a person: this server runs with ELICITATION=false, so its guarded tools fall back to a two-call token.',
    reason: 'elicitation disabled on this server (ELICITATION=false)',
  },
  client: {
    text: 'No person could be asked: this MCP client did not declare support for dialogs (elicitation), so the call falls back to a two-call token.',
    reason: 'client cannot show a dialog',
  },
};

const APPROVAL_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    approve: {
      type: 'boolean',
      title: 'Approve',
      description:
        'Tick to let this call go ahead. Leaving it unticked, declining or closing the dialog changes nothing.',
      default: false,
    },
  },
  required: ['approve'],
};

export class Gate {
  constructor(private readonly options: GateOptions) {}

  async check(request: GateRequest): Promise<GateOutcome> {
    const { tool, args, added } = request;
    const guard = tool.guard;
    if (!guard && !added) return { proceed: true, approval: 'not guarded' };

    const current = guard?.read ? await request.readCurrent(guard, args) : undefined;
    const read = current === undefined ? {} : { current };
    const wider = guard?.wider ? await guard.wider(args, request.look) : undefined;
    const reasons = guard ? guard.reasons(args, current, wider) : [];
    if (reasons.length === 0 && !added)
      return { proceed: true, approval: 'harmless direction', ...read };

    // An added question binds every argument: the operator's rule may turn on any of them.
    const bound = added ? { targets: guard?.targets ?? [], bindBody: true } : guard!;
    // Never ask a person for nothing: a call Woodpecker will refuse for want of an admin
    // is refused here, before the question. An account that cannot be read is asked about.
    if (guard?.needsAdmin?.(args) && (await request.callerIsAdmin?.()) === false)
      return {
        proceed: false,
        outcome: 'refused',
        result: errorResult(
          `${tool.name} with these arguments needs an instance admin, and Woodpecker says this account is not one, so it would refuse the call (403). Nobody was asked and nothing was sent. Ask an instance admin to make this change.`,
        ),
      };

    const binding: SealPayload = {
      kind: 'question',
      tool: tool.name,
      fingerprint: this.options.sealer.bind(
        approvalFingerprint(
          tool.name,
          bound,
          args,
          (guard ? objectIdentity(guard, current) : null) ?? added?.identity ?? null,
        ),
      ),
      principal: request.principal,
    };
    const question = [
      guard && reasons.length > 0
        ? dialogText(guard, args, reasons, current, wider, this.options.webUrl)
        : undefined,
      added?.text,
    ]
      .filter((part) => part !== undefined)
      .join('\n\n');
    const singleUse = added?.singleUse === true;

    const outcome = !this.options.elicitationEnabled
      ? this.tokenPath(tool, args, binding, question, 'server', singleUse)
      : !request.channel.clientCanElicit
        ? this.tokenPath(tool, args, binding, question, 'client', singleUse)
        : this.ask(tool, binding, question, request.channel, singleUse);
    return outcome.proceed ? { ...outcome, ...read } : outcome;
  }

  // Ask by result, and take an answer only if its sealed state opens onto this very call.
  private ask(
    tool: ToolDefinition,
    binding: SealPayload,
    question: string,
    channel: Channel,
    singleUse: boolean,
  ): GateOutcome {
    const opened = this.options.sealer.open(channel.requestState);
    const stateMatches =
      opened.ok &&
      opened.payload.kind === 'question' &&
      opened.payload.tool === binding.tool &&
      opened.payload.fingerprint === binding.fingerprint &&
      opened.payload.principal === binding.principal;
    const view = inputResponse(
      channel.inputResponses as Parameters<typeof inputResponse>[0],
      ANSWER_KEY,
    );
    if (stateMatches && view.kind === 'elicit') {
      const judged = this.judgeAnswer(
        tool,
        view.action,
        view.content,
        channel.revision === '2025-11-25' ? 'dialog' : 'sealed answer',
      );
      return judged.proceed && singleUse && opened.ok
        ? this.spendOnce(tool, opened, judged)
        : judged;
    }
    // No answer, or one that does not belong to this question (tampered, expired, for
    // another target, or a gateway that lost the state): that is no answer; ask afresh.
    const result = inputRequired({
      inputRequests: {
        [ANSWER_KEY]: inputRequired.elicit({
          mode: 'form',
          message: question,
          requestedSchema: APPROVAL_SCHEMA,
        }),
      },
      requestState: this.options.sealer.seal(binding),
    });
    return { proceed: false, outcome: 'asked', result };
  }

  private judgeAnswer(
    tool: ToolDefinition,
    action: string,
    content: unknown,
    approval: Approval,
  ): GateOutcome {
    const approved =
      action === 'accept' && (content as { approve?: unknown } | undefined)?.approve === true;
    if (approved) return { proceed: true, approval };
    const outcome = action === 'cancel' ? 'cancelled' : 'declined';
    const how =
      action === 'accept'
        ? 'submitted the dialog without approving'
        : action === 'cancel'
          ? 'dismissed the dialog'
          : 'declined';
    return {
      proceed: false,
      outcome,
      result: {
        isError: true,
        content: [
          {
            type: 'text',
            text: `Nothing was changed: the person ${how}, so ${tool.name} did not run. Do not retry unless they ask for it.`,
          },
        ],
      },
    };
  }

  /**
   * Lets a single-use approval through once: its second redemption (a replayed answer or
   * token) starts nothing and says so.
   */
  private spendOnce(
    tool: ToolDefinition,
    opened: { readonly nonce: string; readonly expiresAt: number },
    approved: GateOutcome,
  ): GateOutcome {
    if (this.options.spent?.spend(opened.nonce, opened.expiresAt)) return approved;
    return {
      proceed: false,
      outcome: 'refused',
      result: errorResult(
        `Nothing was started: this approval was used already. ${tool.name} starts something new each time it runs, so an approval lets exactly one call through. If another run is really wanted, call ${tool.name} again without the old answer or ${GATE_ARGUMENT}, and a person is asked again.`,
      ),
    };
  }

  private tokenPath(
    tool: ToolDefinition,
    args: ToolArgs,
    binding: SealPayload,
    question: string,
    why: TokenReason,
    singleUse: boolean,
  ): GateOutcome {
    const tokenBinding: SealPayload = { ...binding, kind: 'token' };
    const given = args[GATE_ARGUMENT];
    let mismatch: string | undefined;
    if (typeof given === 'string' && given.length > 0) {
      const opened = this.options.sealer.openToken(given, tokenBinding);
      if (opened.ok) {
        const approved: GateOutcome = { proceed: true, approval: 'token' };
        return singleUse ? this.spendOnce(tool, opened, approved) : approved;
      }
      mismatch = whyTokenDoesNotFit(opened.reason, this.options.sealer.keySource);
    }
    const token = this.options.sealer.issueToken(tokenBinding);
    const whyText = TOKEN_REASONS[why].text;
    const lines = [
      mismatch
        ? `The ${GATE_ARGUMENT} given does not belong to this call: ${mismatch}. Nothing was done.`
        : `Nothing was done yet: ${tool.name} needs confirmation.`,
      whyText,
      `What the call would do: ${question}`,
      `To go ahead, call ${tool.name} again with exactly the same arguments and ${GATE_ARGUMENT} "${token}" within ${APPROVAL_TTL_SECONDS / 60} minutes.`,
      'The token proves only that the call was made twice with the same arguments. It does not prove that a person saw or approved it, so check with the user first.',
    ];
    return {
      proceed: false,
      outcome: 'token issued',
      result: {
        content: [{ type: 'text', text: lines.join('\n\n') }],
        structuredContent: {
          confirmation_required: true,
          [GATE_ARGUMENT]: token,
          expires_in_seconds: APPROVAL_TTL_SECONDS,
          reason: TOKEN_REASONS[why].reason,
          proves: 'only that the call was made twice with the same arguments',
        },
      },
    };
  }
}

/**
 * Why a given token did not fit, precisely enough to act on: a client that starts a new
 * server process per call cannot use a random per-process key, and must learn what to set.
 */
function whyTokenDoesNotFit(
  reason: Extract<TokenOpenResult, { ok: false }>['reason'],
  keySource: SealKeySource,
): string {
  switch (reason) {
    case 'other-call':
      return 'it was issued for other arguments, another tool or another Woodpecker account (or it was changed)';
    case 'expired':
      return `it expired (a token lasts ${APPROVAL_TTL_SECONDS / 60} minutes)`;
    case 'malformed':
      return 'it is not a token this server issues (it was shortened or changed)';
    case 'bad-signature':
      if (keySource === 'random') {
        return 'it was not issued by this server process. This process signs tokens with a random key of its own because neither WOODPECKER_MCP_SEAL_KEY nor WOODPECKER_TOKEN is set, so a token from another process (a client that starts a new server for every call, a restart, another replica) cannot match. Set WOODPECKER_MCP_SEAL_KEY to the same 32+ byte value for every server process (openssl rand -base64 48)';
      }
      if (keySource === 'derived') {
        return 'it was signed with another key: a server process with a different WOODPECKER_TOKEN or a WOODPECKER_MCP_SEAL_KEY issued it. Give every server process the same WOODPECKER_MCP_SEAL_KEY';
      }
      return "it was not signed with this server's WOODPECKER_MCP_SEAL_KEY (it was changed, or another server issued the token)";
  }
}

/**
 * The text a person reads. It comes only from the manifest's template (ids and enum
 * values) and the guard's fixed reason sentences: nothing a repository's pushers wrote
 * can reach it.
 */
export function dialogText(
  guard: GuardSpec,
  args: ToolArgs,
  reasons: readonly string[],
  current?: unknown,
  levels?: readonly LevelFinding[],
  webUrl?: string,
): string {
  const text = [guard.dialog(args, current).trim()];
  const where = describeLevels(levels);
  if (where) text.push(where);
  if (guard.condition !== 'always') text.push(`This asks because ${reasons.join('; ')}.`);
  // Last, so the person reads what happens first and then where to check it.
  const page = pageLine(guard.links, args, current, webUrl);
  if (page) text.push(page);
  return text.join('\n\n');
}

/**
 * The object's own id as Woodpecker reported it in the guard's read, or null when the
 * guard names its object by id already (no `identity`) or the answer had none. Null
 * never matches a real id, so an answer without one cannot stand in for an object.
 */
function objectIdentity(guard: GuardSpec, current: unknown): number | null {
  if (guard.identity === undefined) return null;
  const id = valueAt(current, guard.identity);
  return Number.isSafeInteger(id) ? (id as number) : null;
}

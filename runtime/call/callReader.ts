// The one way a call reads Woodpecker: every step (the allowlist, the release check, the
// operator's policy, the gate) and every handler sends through it. Within one call a GET
// is asked once and its answer shared: get_pipeline_failure's flaky evidence and its
// change since green read the same first page of pipelines and the same green pipeline,
// the policy and the allowlist the same repository. A write forgets every answer, since
// what it changed may be among them; a read that must see the present (a poll) is `fresh`.
import type { WoodpeckerRequest } from '../core/tool.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';
import { CURRENT_USER } from '../woodpecker/currentUser.js';

type Send = (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>;

export interface CallReader {
  /** Sends the request: a GET answered once per call, anything else always, forgetting the GETs. */
  send(request: WoodpeckerRequest): Promise<WoodpeckerResponse>;
  /** A GET that goes to Woodpecker even when the call asked it before (a poll). */
  fresh(request: WoodpeckerRequest): Promise<WoodpeckerResponse>;
  /** The calling account, as Woodpecker's /api/user answers it. */
  currentUser(): Promise<WoodpeckerResponse>;
}

export function callReader(send: Send): CallReader {
  const answers = new Map<string, Promise<WoodpeckerResponse>>();
  const keyOf = (request: WoodpeckerRequest) =>
    JSON.stringify([
      request.path,
      Object.entries(request.query ?? {}).sort(([a], [b]) => a.localeCompare(b)),
    ]);
  const remembered = (request: WoodpeckerRequest, answer: Promise<WoodpeckerResponse>) => {
    const key = keyOf(request);
    answers.set(key, answer);
    // A failed read is not an answer to keep: the next step may try again.
    answer.catch(() => {
      if (answers.get(key) === answer) answers.delete(key);
    });
    return answer;
  };
  const reader: CallReader = {
    send(request) {
      if (request.method !== 'GET') {
        answers.clear();
        return send(request);
      }
      return answers.get(keyOf(request)) ?? remembered(request, send(request));
    },
    fresh(request) {
      return request.method === 'GET' ? remembered(request, send(request)) : reader.send(request);
    },
    currentUser: () => reader.send(CURRENT_USER),
  };
  return reader;
}

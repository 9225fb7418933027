// The reads one call makes before it acts — the WOODPECKER_REPOS check, the version
// check, the guard's looks at other levels — often ask the same question (a repository
// id's repository). Within one call they share the answer, so Woodpecker is asked once.
// Only GETs, and only for the checks before the gate: the guard's own read of the object
// and the write itself always go to Woodpecker.
import type { WoodpeckerRequest } from '../core/tool.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';

type Send = (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>;

export function sharingReads(send: Send): Send {
  const answers = new Map<string, Promise<WoodpeckerResponse>>();
  return (request) => {
    if (request.method !== 'GET') return send(request);
    const query = Object.entries(request.query ?? {}).sort(([a], [b]) => a.localeCompare(b));
    const key = JSON.stringify([request.path, query]);
    let answer = answers.get(key);
    if (!answer) {
      answer = send(request);
      answers.set(key, answer);
    }
    return answer;
  };
}

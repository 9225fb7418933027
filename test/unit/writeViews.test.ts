// Every write that answers with a Woodpecker object answers through a view, as the reads
// do: the server's instructions promise answers without empty fields and with UTC times,
// and a model that reads restart_pipeline's raw pipeline (nulls, Unix seconds) learns to
// distrust the promise. The exceptions are named, each with why.
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';

// Checked one by one (issue 35's audit): neither answers with a Woodpecker object that has
// nulls, empty fields or Unix seconds. create_forge was one until it got the forge view
// (test/unit/handlers/createForge.test.ts holds its answer).
const WITHOUT_VIEW: Record<string, string> = {
  // Its handler's own four fields (moved, repo_id, full_name, woodpecker_status, and a
  // note after a 5xx), every one set: a view would have nothing to leave out.
  move_repository: 'its handler answers with what it checked after the move, not an object',
  // Woodpecker answers {"log-level": "<level>"} (server/api/z.go): one string, never empty.
  set_log_level: 'the answer is the one field log-level',
};

describe('write answers', () => {
  it('every write answering with an object has a view, or is a named exception', () => {
    const writes = tools.filter(
      (tool) => !tool.annotations.readOnlyHint && tool.output.kind === 'object',
    );
    const missing = writes
      .filter((tool) => tool.output.view === undefined && !(tool.name in WITHOUT_VIEW))
      .map((tool) => tool.name);
    expect(missing).toEqual([]);
    // An exception that has a view now, or is no longer a write, is stale.
    for (const name of Object.keys(WITHOUT_VIEW))
      expect(writes.find((tool) => tool.name === name)?.output.view, name).toBeUndefined();
  });
});

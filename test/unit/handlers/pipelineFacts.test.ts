// The one reader of a pipeline's facts for the insight handlers: what Woodpecker sent is
// kept as sent where its type is right, and anything else reads as empty, never as a guess.
import { describe, expect, it } from 'vitest';
import { pipelineFacts, pipelineList } from '../../../runtime/handlers/reads/pipelineFacts.js';
import { stepsOf } from '../../../runtime/handlers/reads/pipelineSteps.js';

describe('pipelineFacts', () => {
  it('reads the fields the handlers decide by, with the whole answer beside them', () => {
    const answer = {
      number: 12,
      status: 'failure',
      commit: 'c0ffee',
      branch: 'main',
      event: 'pull_request',
      ref: 'refs/pull/3/head',
      parent: 11,
      author: 'dev',
      message: 'fix it',
      changed_files: ['a.go', 'b.go'],
      deploy_to: 'staging',
    };
    expect(pipelineFacts(answer)).toEqual({
      number: 12,
      status: 'failure',
      commit: 'c0ffee',
      branch: 'main',
      event: 'pull_request',
      ref: 'refs/pull/3/head',
      parent: 11,
      author: 'dev',
      message: 'fix it',
      changed_files: ['a.go', 'b.go'],
      answer,
    });
  });

  it('keeps a status a newer release adds as sent', () => {
    expect(pipelineFacts({ number: 1, status: 'waiting_on_dependency' }).status).toBe(
      'waiting_on_dependency',
    );
  });

  it('reads missing or mistyped fields as empty, not as a number or text made up', () => {
    const facts = pipelineFacts({ number: '8', parent: null, commit: 7, changed_files: ['a', 3] });
    expect(facts).toMatchObject({ number: 0, parent: 0, commit: '', changed_files: ['a'] });
    for (const answer of [undefined, null, 'text', [1, 2]])
      expect(pipelineFacts(answer)).toMatchObject({ number: 0, status: '', answer: {} });
  });

  it('reads a list answer entry by entry, and anything else as no pipelines', () => {
    expect(pipelineList([{ number: 2 }, { number: 1 }]).map((p) => p.number)).toEqual([2, 1]);
    expect(pipelineList({ error: 'not a list' })).toEqual([]);
  });
});

describe('stepsOf', () => {
  it('reads a null or a number among the workflows or steps as none, not as a crash', () => {
    const answer = {
      workflows: [null, 3, { name: 'ci', children: [null, { id: 5, name: 'test' }] }],
    };
    expect(stepsOf(answer).map((step) => [step.workflow, step.id, step.name])).toEqual([
      ['ci', 5, 'test'],
    ]);
  });
});

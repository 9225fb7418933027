// The fixture check itself: real answers pass it, a drifted fixture does not.
import { describe, expect, it } from 'vitest';
import { loadCaptured } from '../../bench/answerCost.js';
import { checkAnswer, checkRequestBody, routeOf } from './woodpeckerSpec.js';

const captured = loadCaptured().answers.filter((answer) => answer.woodpecker !== undefined);

describe('woodpecker-openapi.json as the fixture check', () => {
  it('finds the route of a concrete path, literal segments first', () => {
    expect(routeOf('/api/repos/7')).toBe('/repos/{repo_id}');
    expect(routeOf('/api/repos/lookup/owner/name')).toBe('/repos/lookup/{repo_full_name}');
    expect(routeOf('/api/repos/7/pipelines/latest')).toBe(
      '/repos/{repo_id}/pipelines/{pipeline_number}',
    );
    expect(() => routeOf('/api/nowhere')).toThrow(/no route/);
  });

  it.each(captured.map((answer) => [answer.key, answer] as const))(
    'the captured answer %s fits its route',
    (_key, answer) => {
      const route = (answer as { route?: string }).route ?? '';
      expect(() => checkAnswer('GET', route.split('?')[0]!, 200, answer.woodpecker)).not.toThrow();
    },
  );

  it('refuses a misspelt field, a wrong type and a body the route does not take', () => {
    expect(() => checkAnswer('GET', '/api/repos/7', 200, { id: 7, fullname: 'a/b' })).toThrow(
      /fullname/,
    );
    expect(() => checkAnswer('GET', '/api/repos/7', 200, { id: 'seven' })).toThrow(/integer/);
    expect(() => checkRequestBody('DELETE', '/api/repos/7', { id: 7 })).toThrow(/no JSON body/);
    expect(() => checkRequestBody('POST', '/api/agents', { name: 'a', capacity: 'x' })).toThrow(
      /integer/,
    );
  });
});

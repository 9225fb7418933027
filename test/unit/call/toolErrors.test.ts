import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import { describeFailure, readBackTools } from '../../../runtime/call/toolErrors.js';
import { WoodpeckerUnreachableError } from '../../../runtime/woodpecker/woodpeckerClient.js';

const names = new Set(tools.map((tool) => tool.name));
const exists = (name: string) => names.has(name);
const toolNamed = (name: string) => tools.find((tool) => tool.name === name)!;

describe('a write whose outcome is unknown', () => {
  it.each([
    ['delete_secret', ['get_secret', 'list_secrets']],
    ['trigger_pipeline', ['get_pipeline', 'list_pipelines']],
    ['set_log_level', ['get_log_level']],
    ['activate_repository', ['get_repository', 'list_repositories']],
    ['pause_queue', []],
  ])('%s is checked with %j', (name, reads) => {
    expect(readBackTools(toolNamed(name), exists)).toEqual(reads);
  });

  it('says the outcome is unknown, that it was not sent again, and which tool shows the state', () => {
    const error = new WoodpeckerUnreachableError(
      'DELETE',
      '/api/repos/3/secrets/X',
      'the connection was reset',
      true,
    );
    const text = (
      describeFailure(toolNamed('delete_secret'), error, exists).content[0] as { text: string }
    ).text;
    expect(text).toMatch(
      /outcome is unknown.*DELETE \/api\/repos\/3\/secrets\/X may have been carried out\. It was not sent again\. Check the current state with get_secret or list_secrets before calling delete_secret again\./,
    );
  });

  it('a failure known to have sent nothing says nothing of an unknown outcome', () => {
    const error = new WoodpeckerUnreachableError(
      'DELETE',
      '/api/repos/3/secrets/X',
      'connection refused',
      false,
    );
    const text = (
      describeFailure(toolNamed('delete_secret'), error, exists).content[0] as { text: string }
    ).text;
    expect(text).not.toMatch(/unknown|may have/);
  });
});

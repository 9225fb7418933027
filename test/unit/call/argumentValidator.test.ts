import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from '../../../runtime/call/argumentValidator.js';

const schema = {
  type: 'object',
  properties: {
    repo_id: {
      type: 'integer',
      minimum: 1,
      description: 'Numeric id of the repository. Get it from list_repositories.',
    },
    events: { type: 'array', items: { type: 'string', enum: ['push', 'tag'] }, minItems: 1 },
    name: { type: 'string', pattern: '^[A-Z_]+$', maxLength: 8 },
    per_page: { type: 'integer', maximum: 50 },
  },
  required: ['repo_id'],
  additionalProperties: false,
} as const;
const validate = new ArgumentValidator().getValidator(schema);
const messageOf = (input: unknown) => {
  const result = validate(input);
  expect(result.valid).toBe(false);
  return result.errorMessage ?? '';
};

describe('ArgumentValidator', () => {
  // A model passes the type it saw for the same name elsewhere: pipeline numbers are
  // integers in every answer, "latest" makes get_pipeline's a string.
  it('takes a whole number where a string is asked, and a number written as text where a whole number is', () => {
    const numbers = new ArgumentValidator().getValidator({
      type: 'object',
      properties: {
        number: { type: 'string', pattern: '^([1-9][0-9]*|latest)$' },
        repo_id: { type: 'integer', minimum: 1 },
      },
      additionalProperties: false,
    });
    expect(numbers({ number: 7, repo_id: '3' })).toEqual({
      valid: true,
      data: { number: '7', repo_id: 3 },
      errorMessage: undefined,
    });
    expect(numbers({ number: 0 }).errorMessage).toContain('number must match');
    expect(numbers({ repo_id: '3.5' }).errorMessage).toContain('repo_id must be a whole number');
    expect(numbers({ repo_id: '007' }).errorMessage).toContain('repo_id must be a whole number');
  });
  it('accepts valid arguments unchanged', () => {
    expect(validate({ repo_id: 3, events: ['push'] })).toEqual({
      valid: true,
      data: { repo_id: 3, events: ['push'] },
      errorMessage: undefined,
    });
  });
  it.each([
    [{}, 'repo_id is required: Numeric id of the repository'],
    [{ repo_id: 'abc' }, 'repo_id must be a whole number (got "abc")'],
    [{ repo_id: 0 }, 'repo_id must be at least 1 (got 0)'],
    [{ repo_id: 1, per_page: 99 }, 'per_page must be at most 50 (got 99)'],
    [{ repo_id: 1, events: ['pushy'] }, 'events[0] must be one of push, tag (got "pushy")'],
    [{ repo_id: 1, events: [] }, 'events needs at least 1 item'],
    [{ repo_id: 1, events: 'push' }, 'events must be a list (got "push")'],
    [{ repo_id: 1, name: 'lower' }, 'name must match ^[A-Z_]+$ (got "lower")'],
    [{ repo_id: 1, name: 'ABCDEFGHIJ' }, 'name must not be longer than 8 characters'],
    [
      { repo_id: 1, branch: 'main' },
      'branch is not a parameter of this tool; it takes repo_id, events, name, per_page',
    ],
  ])('%j → names the field and what fits', (input, message) => {
    expect(messageOf(input)).toContain(message);
    expect(messageOf(input)).toMatch(/Fix the arguments and call again\.$/);
  });
  it('explains the id ceiling and the dot segments a path value may not be', () => {
    const pathSchema = {
      type: 'object',
      properties: {
        repo_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        name: { type: 'string', minLength: 1, not: { enum: ['.', '..'] } },
      },
      additionalProperties: false,
    } as const;
    const check = new ArgumentValidator().getValidator(pathSchema);
    expect(check({ repo_id: 2 ** 64 }).errorMessage).toContain(
      'repo_id must be at most 9007199254740991, the largest whole number JSON carries exactly',
    );
    expect(check({ name: '..' }).errorMessage).toContain(
      'name must not be "." or "..": as a URL path segment it would address another route (got "..")',
    );
    expect(check({ repo_id: Number.MAX_SAFE_INTEGER, name: '...' }).valid).toBe(true);
  });
  it('reports every problem at once', () => {
    const message = messageOf({ repo_id: 'x', events: ['nope'] });
    expect(message).toContain('repo_id must be a whole number');
    expect(message).toContain('events[0] must be one of');
  });
});

// tools.yaml marks credentials `secret: true`; the generator emits writeOnly. A caller
// who sends one in the wrong shape must not read it back in the error.
describe('ArgumentValidator and text that is not valid Unicode', () => {
  // Found by test/e2e/fuzz-arguments.test.ts: a lone surrogate made encodeURIComponent throw
  // ("failed unexpectedly: URI malformed"), and in a body Woodpecker would store U+FFFD.
  const free = new ArgumentValidator().getValidator({
    type: 'object',
    properties: { name: { type: 'string' }, images: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  } as const);
  it.each([
    [{ name: 'ab\ud800' }, 'name is not valid Unicode text'],
    [{ name: '\udc00x' }, 'name is not valid Unicode text'],
    [{ images: ['ok', 'x\udbff'] }, 'images[1] is not valid Unicode text'],
  ])('%j is refused, naming the field', (input, message) => {
    const result = free(input);
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toContain(message);
  });
  it('accepts whole surrogate pairs (emoji)', () => {
    expect(free({ name: '😀 ok', images: ['𔗠'] }).valid).toBe(true);
  });
});

describe('ArgumentValidator never echoes a credential', () => {
  const CANARY = 'canary-9f3b-secret-value';
  const secretSchema = {
    type: 'object',
    properties: {
      name: { type: 'string', pattern: '^[A-Z_]+$' },
      value: { type: 'string', minLength: 1, pattern: '^\\S+$', writeOnly: true },
    },
    required: ['name', 'value'],
    additionalProperties: false,
  } as const;
  const check = new ArgumentValidator().getValidator(secretSchema);
  const refusal = (input: unknown) => {
    const result = check(input);
    expect(result.valid).toBe(false);
    return result.errorMessage ?? '';
  };

  it.each([
    [{ name: 'A', value: { nested: CANARY } }, 'value must be a string (got an object)'],
    [{ name: 'A', value: [CANARY] }, 'value must be a string (got a list)'],
    [{ name: 'A', value: `${CANARY} with space` }, 'value must match ^\\S+$ (got a string)'],
  ])('%j → names the field and the kind, never the value', (input, message) => {
    const text = refusal(input);
    expect(text).toContain(message);
    expect(text).not.toContain('canary');
  });

  it('describes any container by its kind, even in a field that is not a credential', () => {
    const text = refusal({ name: { pasted: CANARY }, value: 'x' });
    expect(text).toContain('name must be a string (got an object)');
    expect(text).not.toContain('canary');
  });

  it('the generated create_secret and create_registry mark their credentials writeOnly', async () => {
    const { tools } = await import('../../../generated/index.js');
    const property = (tool: string, param: string) =>
      (
        tools.find((t) => t.name === tool)?.inputSchema.properties[param] as
          { writeOnly?: boolean } | undefined
      )?.writeOnly;
    expect(property('create_secret', 'value')).toBe(true);
    expect(property('update_secret', 'value')).toBe(true);
    expect(property('create_registry', 'password')).toBe(true);
    expect(property('update_registry', 'password')).toBe(true);
    expect(property('create_forge', 'oauth_client_secret')).toBe(true);
    const createSecret = tools.find((t) => t.name === 'create_secret')!;
    const result = new ArgumentValidator().getValidator(
      createSecret.inputSchema as Parameters<ArgumentValidator['getValidator']>[0],
    )({
      scope: 'global',
      name: 'x',
      value: { nested: CANARY },
      events: ['push'],
    });
    expect(result.errorMessage).toContain('value must be a string');
    expect(result.errorMessage).not.toContain('canary');
  });
});

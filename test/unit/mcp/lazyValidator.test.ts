import { describe, expect, it } from 'vitest';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/server';
import { ArgumentValidator } from '../../../runtime/call/argumentValidator.js';
import { LazyValidator } from '../../../runtime/mcp/lazyValidator.js';

/** Counts compilations, so a test can tell when a schema was compiled. */
class CountingValidator implements jsonSchemaValidator {
  compiled = 0;
  constructor(private readonly inner: jsonSchemaValidator) {}
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.compiled++;
    return this.inner.getValidator<T>(schema);
  }
}

const schema = {
  type: 'object',
  properties: { repo_id: { type: 'integer', minimum: 1 } },
  required: ['repo_id'],
  additionalProperties: false,
} as JsonSchemaType;

describe('LazyValidator', () => {
  it('compiles nothing when a tool is registered, and each schema once, on its first check', () => {
    const counting = new CountingValidator(new ArgumentValidator());
    const check = new LazyValidator(counting).getValidator(schema);
    expect(counting.compiled).toBe(0);
    expect(check({ repo_id: 3 }).valid).toBe(true);
    expect(check({ repo_id: 4 }).valid).toBe(true);
    expect(counting.compiled).toBe(1);
  });

  it('rejects bad arguments with the same message naming the field and the fix', () => {
    const eager = new ArgumentValidator().getValidator(schema)({ repo_id: 0 });
    const lazy = new LazyValidator(new ArgumentValidator()).getValidator(schema)({ repo_id: 0 });
    expect(lazy).toEqual(eager);
    expect(lazy.valid).toBe(false);
    expect(lazy.errorMessage).toMatch(/repo_id must be at least 1.*Fix the arguments/);
  });
});

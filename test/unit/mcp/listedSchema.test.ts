import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { getPipeline } from '../../../generated/tools/get_pipeline.js';
import { ArgumentValidator } from '../../../runtime/call/argumentValidator.js';
import { listedSchemaOf } from '../../../runtime/mcp/listedSchema.js';

describe('listed schema', () => {
  it('leaves `detail` out of the list (the instructions explain it once) yet accepts it', () => {
    const listed = listedSchemaOf(getPipeline.inputSchema) as {
      properties: Record<string, unknown>;
      additionalProperties?: unknown;
    };
    expect(Object.keys(listed.properties)).toEqual(['repo_id', 'number']);
    expect(listed.additionalProperties).toBeUndefined();
    const validate = new ArgumentValidator().getValidator(
      getPipeline.inputSchema as JsonSchemaType,
    );
    expect(validate({ repo_id: 1, number: 7, detail: 'full' })).toMatchObject({
      valid: true,
      data: { repo_id: 1, number: 7, detail: 'full' },
    });
    expect(validate({ repo_id: 1, number: 7, detail: 'all' }).errorMessage).toContain(
      'detail must be one of full',
    );
  });
});

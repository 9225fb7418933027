// The tool list as a client library's validator reads it: the Go SDK and mcp-go check a
// call's arguments against the listed input schema before sending it. A pipeline number
// is an integer in every answer and every other tool, so get_pipeline must list one as
// valid too, besides "latest"; and the server must take what its list allows.
import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import { ArgumentValidator } from '../../../runtime/call/argumentValidator.js';
import { listedSchemaOf } from '../../../runtime/mcp/listedSchema.js';

const numbered = tools.filter((tool) => 'number' in tool.inputSchema.properties);

describe('listed schemas as a client validator reads them', () => {
  it('every tool that takes a pipeline number lists an integer as valid', () => {
    expect(numbered.map((tool) => tool.name)).toContain('get_pipeline');
    const ajv = new Ajv2020({ strict: false });
    const refused = numbered
      .filter((tool) => {
        const others = Object.fromEntries(
          (tool.inputSchema.required ?? [])
            .filter((name) => name !== 'number')
            .map((name) => [name, sampleOf(tool.inputSchema.properties[name])]),
        );
        return !ajv.validate(listedSchemaOf(tool.inputSchema), { ...others, number: 2 });
      })
      .map((tool) => tool.name);
    expect(refused).toEqual([]);
  });

  it('get_pipeline lists integer or "latest", and the server takes both and refuses the rest', () => {
    const getPipeline = tools.find((tool) => tool.name === 'get_pipeline')!;
    const listed = listedSchemaOf(getPipeline.inputSchema);
    const client = new Ajv2020({ strict: false }).compile(listed);
    const server = new ArgumentValidator().getValidator(getPipeline.inputSchema as JsonSchemaType);
    for (const number of [2, 'latest']) {
      expect(client({ repo_id: 1, number })).toBe(true);
      expect(server({ repo_id: 1, number }).valid).toBe(true);
    }
    for (const number of ['newest', 2.5]) {
      expect(client({ repo_id: 1, number })).toBe(false);
      expect(server({ repo_id: 1, number }).errorMessage).toMatch(/^number must be/);
    }
    // The list leaves out minimum 1 (tokens); the server refuses 0 and below, naming the field.
    for (const number of [0, -1])
      expect(server({ repo_id: 1, number }).errorMessage).toMatch(/^number must be/);
    // A model that sends the digits as text is still understood.
    expect(server({ repo_id: 1, number: '7' })).toMatchObject({ valid: true, data: { number: 7 } });
  });
});

function sampleOf(schema: unknown): unknown {
  const property = schema as { type?: string; enum?: unknown[]; minimum?: number };
  if (property.enum) return property.enum[0];
  return property.type === 'integer' ? Math.max(property.minimum ?? 1, 1) : 'sample';
}

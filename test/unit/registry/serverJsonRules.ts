// What the MCP registry's server.json schema of 2025-12-11 requires, written down in our
// own words as a JSON Schema (draft 07) for ajv: the schema named in server.json's
// $schema, read from modelcontextprotocol/registry at
// internal/validators/schemas/2025-12-11.json (commit e361b5f). Only the rules a
// server.json of an npm stdio package can break are here; the registry's own file is not
// copied. When server.json moves to a newer $schema, read that one and update this.
export const SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

// A specific version: the registry refuses "latest" and ranges (^, ~, >=, 1.x, 1.*).
const specificVersion = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  not: { anyOf: [{ const: 'latest' }, { pattern: '^[\\^~<>=]|[.][xX*](?:$|[.])' }] },
};

const input = {
  type: 'object',
  properties: {
    description: { type: 'string' },
    // The four formats the schema names; "filepath" means a file on the user's machine.
    format: { enum: ['string', 'number', 'boolean', 'filepath'] },
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    default: { type: 'string' },
    placeholder: { type: 'string' },
    value: { type: 'string' },
    choices: { type: 'array', items: { type: 'string' } },
  },
};

const transport = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['stdio', 'streamable-http', 'sse'] } },
  // The HTTP transports need an http(s) URL template.
  if: { properties: { type: { enum: ['streamable-http', 'sse'] } } },
  then: { required: ['url'], properties: { url: { type: 'string', pattern: '^https?://\\S+$' } } },
};

export const serverJsonRules = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['name', 'description', 'version'],
  properties: {
    $schema: { const: SCHEMA_URL },
    // Reverse DNS, exactly one slash between namespace and server name.
    name: {
      type: 'string',
      minLength: 3,
      maxLength: 200,
      pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$',
    },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    version: specificVersion,
    websiteUrl: { type: 'string', pattern: '^https?://' },
    repository: {
      type: 'object',
      required: ['url', 'source'],
      properties: { url: { type: 'string', pattern: '^https?://' }, source: { type: 'string' } },
    },
    packages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['registryType', 'identifier', 'transport'],
        properties: {
          registryType: { type: 'string', minLength: 1 },
          registryBaseUrl: { type: 'string', pattern: '^https?://' },
          identifier: { type: 'string', minLength: 1 },
          version: specificVersion,
          runtimeHint: { type: 'string' },
          transport,
          environmentVariables: {
            type: 'array',
            items: {
              ...input,
              required: ['name'],
              properties: { ...input.properties, name: { type: 'string', minLength: 1 } },
            },
          },
        },
      },
    },
  },
} as const;

// Arguments that pass a tool's input schema, built from the schema alone: enough for a
// test that only needs the call to reach Woodpecker (the fault suites answer every
// request themselves, so no object has to exist).
import type { ToolDefinition } from '../../runtime/core/tool.js';

type PropertySchema = {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  minLength?: number;
  pattern?: string;
  items?: PropertySchema;
  writeOnly?: boolean;
  anyOf?: PropertySchema[];
};

// The patterns tools.yaml uses, each with a value that fits.
const PATTERN_SAMPLES: Record<string, string> = {
  '^[^/]+(/[^/]+)+$': 'owner/name',
  '^[a-z_]+(,[a-z_]+)*$': 'push',
  '^[a-zA-Z0-9._-]+$': 'sample-login',
  '^(?:[^0]|0.)': '4242',
  // get_step_logs' from: head, tail or a line number.
  '^(head|tail|0|[1-9][0-9]{0,8})$': 'tail',
  // create_forge's url (format http_url): an http(s) URL with a host name.
  '^https?://[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:/[^\\s@]*)?$':
    'https://forge.example.com',
};

export function sampleValue(name: string, schema: PropertySchema): unknown {
  // Integer or a word (get_pipeline's number): the first branch is the integer.
  if (schema.anyOf?.[0]) return sampleValue(name, schema.anyOf[0]);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'array':
      return [sampleValue(name, schema.items ?? { type: 'string' })];
    case 'object':
      return {};
    default:
      if (schema.pattern) {
        const sample = PATTERN_SAMPLES[schema.pattern];
        if (sample === undefined)
          throw new Error(
            `no sample for the pattern of ${name}: ${schema.pattern}; add one to PATTERN_SAMPLES`,
          );
        return sample;
      }
      if (name === 'schedule') return '@daily';
      // owner/name: resolve_link then asks Woodpecker which repository that is.
      if (name === 'link') return 'sample-owner/sample-name';
      if (name.endsWith('url') || name === 'address') return 'https://forge.example.com';
      return 'sample';
  }
}

/**
 * Every required argument, plus every id (`*_id`, `number`): with scope `repository`
 * (every scoped tool's first enum value) the call needs `repo_id` even though the schema
 * cannot say so. Optional arguments are left out, so no guard condition is widened.
 */
export function minimalArgs(tool: ToolDefinition): Record<string, unknown> {
  const properties = tool.inputSchema.properties as Record<string, PropertySchema>;
  const required = new Set(tool.inputSchema.required ?? []);
  const args: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (name === 'confirm_token') continue;
    if (required.has(name) || name.endsWith('_id') || name === 'number')
      args[name] = sampleValue(name, schema);
  }
  return args;
}

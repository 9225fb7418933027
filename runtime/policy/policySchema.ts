// The JSON Schema of a WOODPECKER_MCP_POLICY file. Every object is closed: a key this
// server does not know is refused, not ignored, because an ignored key is a rule the
// operator believes is in force. There is no effect that removes caution.
import { WEBHOOK_EVENTS } from '../core/woodpeckerEvents.js';

const stringList = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } };

export const POLICY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['rules'],
  properties: {
    rules: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'effect'],
        anyOf: [{ required: ['tools'] }, { required: ['groups'] }],
        properties: {
          name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_.-]{0,62}$' },
          tools: stringList,
          groups: stringList,
          repositories: {
            type: 'array',
            minItems: 1,
            items: {
              anyOf: [
                { type: 'integer', minimum: 1 },
                { type: 'string', pattern: '^[^/\\s]+/[^/\\s]+$' },
              ],
            },
          },
          branches: stringList,
          events: { type: 'array', minItems: 1, items: { enum: [...WEBHOOK_EVENTS] } },
          deploy_to: stringList,
          effect: { enum: ['ask', 'deny', 'limit'] },
          because: { type: 'string', minLength: 1, maxLength: 300 },
          limit: {
            type: 'object',
            additionalProperties: false,
            required: ['builds', 'per', 'window'],
            properties: {
              builds: { type: 'integer', minimum: 1, maximum: 100000 },
              per: { enum: ['repository', 'credential'] },
              window: { type: 'string', pattern: '^[1-9][0-9]{0,5}(s|m|h|d)$' },
            },
          },
        },
      },
    },
  },
} as const;

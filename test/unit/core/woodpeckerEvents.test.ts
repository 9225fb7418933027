// One list of Woodpecker's pipeline events (runtime/core/woodpeckerEvents.ts): the pinned
// spec's WebhookEvent, the operator policy's `events` and tools.yaml's event arguments all
// hold the same names, so an event Woodpecker adds fails here until every place has it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import { EVENT_FAMILIES, WEBHOOK_EVENTS } from '../../../runtime/core/woodpeckerEvents.js';
import { POLICY_SCHEMA } from '../../../runtime/policy/policySchema.js';

const spec = JSON.parse(
  readFileSync(new URL('../../../woodpecker-openapi.json', import.meta.url), 'utf8'),
) as { components: { schemas: Record<string, { enum?: string[] }> } };

/** The enum of an argument, or of its items for a list argument. */
function enumOf(schema: unknown): readonly unknown[] | undefined {
  const property = schema as { enum?: unknown[]; items?: { enum?: unknown[] } };
  return property.enum ?? property.items?.enum;
}

describe("Woodpecker's event list", () => {
  it('is the pinned spec’s WebhookEvent and metadata.Event, in its order', () => {
    expect(WEBHOOK_EVENTS).toEqual(spec.components.schemas['WebhookEvent']?.enum);
    expect(WEBHOOK_EVENTS).toEqual(spec.components.schemas['metadata.Event']?.enum);
  });

  it('is the operator policy’s events enum', () => {
    const rule = POLICY_SCHEMA.properties.rules.items.properties;
    expect(rule.events.items.enum).toEqual(WEBHOOK_EVENTS);
  });

  it('is every event argument of tools.yaml (no tool offers a shorter or longer list)', () => {
    const eventArguments = tools.flatMap((tool) =>
      Object.entries(tool.inputSchema.properties ?? {})
        .filter(([, schema]) => enumOf(schema)?.includes('push'))
        .map(([name, schema]) => ({ at: `${tool.name}.${name}`, events: enumOf(schema) })),
    );
    expect(eventArguments.map((entry) => entry.at)).toEqual([
      'create_secret.events',
      'update_repository.cancel_previous_pipeline_events',
      'update_secret.events',
    ]);
    for (const entry of eventArguments) expect(entry.events, entry.at).toEqual(WEBHOOK_EVENTS);
  });

  it('holds every event of a family', () => {
    for (const family of Object.values(EVENT_FAMILIES))
      for (const event of family) expect(WEBHOOK_EVENTS).toContain(event);
  });
});

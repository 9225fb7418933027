// Stage 4e: generated/views.ts, each named view of tools.yaml (`views:`) written once. A
// tool's output and a view that nests another refer to it by name instead of repeating
// its fields, so a view is read (and reviewed) in one place.
import { formatTypeScript } from '../format.js';
import { tsHeader, type Inputs } from '../header.js';
import { camelCase, type ToolModel } from '../model.js';
import type { CompiledViews } from '../spec/views.js';
import type { View } from '../../runtime/core/tool.js';

/**
 * The named views the tools use, each with the constant it is written as, in an order
 * where a view comes after the views it nests (a `const` must exist before it is read).
 */
export type ViewNames = ReadonlyMap<View, string>;

export function viewNames(views: CompiledViews, tools: readonly ToolModel[]): ViewNames {
  const nameOf = new Map<View, string>();
  for (const [name, view] of views.named) nameOf.set(view, `${camelCase(name)}View`);
  const ordered = new Map<View, string>();
  const visit = (view: View): void => {
    for (const field of view) if (field.show === 'view') visit(field.view);
    const name = nameOf.get(view);
    if (name !== undefined && !ordered.has(view)) ordered.set(view, name);
  };
  for (const tool of tools) if (tool.output.view) visit(tool.output.view);
  return ordered;
}

/** A value as TypeScript: JSON, but a named view is its constant's name. */
export function valueText(value: unknown, names: ViewNames, nested = true): string {
  const name = nested ? names.get(value as View) : undefined;
  if (name !== undefined) return name;
  if (Array.isArray(value)) return `[${value.map((item) => valueText(item, names)).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([key, inner]) => `${JSON.stringify(key)}: ${valueText(inner, names)}`);
    return `{${fields.join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** The constants a view refers to directly (not those inside another named view). */
export function viewsReferenced(view: View | undefined, names: ViewNames): string[] {
  const used = new Set<string>();
  const walk = (inner: View): void => {
    const name = names.get(inner);
    if (name !== undefined) {
      used.add(name);
      return;
    }
    for (const field of inner) if (field.show === 'view') walk(field.view);
  };
  if (view) walk(view);
  return [...used].sort();
}

export function emitViews(names: ViewNames, inputs: Inputs): Promise<string> {
  const declarations = [...names].map(
    ([view, name]) => `export const ${name}: View = ${valueText(view, names, false)};`,
  );
  const text = [
    tsHeader(inputs),
    `import type { View } from '../runtime/core/tool.js';`,
    '',
    declarations.join('\n\n'),
    '',
  ].join('\n');
  return formatTypeScript(text);
}

// Stage 4f (docs): Real answers per tool for docs/tools.md, as the model reads them: the answers
// Woodpecker gave the test harness (test/answers/captured.json, captured and kept current
// by test/e2e/answer-views.test.ts) passed through the runtime's own output step with the
// tool as this run of the generator models it, so a changed view changes the docs at once
// and `npm run generate:check` fails until they are regenerated.
import { existsSync, readFileSync } from 'node:fs';
import type { ToolDefinition } from '../../runtime/core/tool.js';
import { answerOf } from '../../runtime/output/answer.js';
import { finishAnswer } from '../../runtime/output/outputStep.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../../runtime/output/resultLimit.js';
import type { ToolModel } from '../model.js';

interface Captured {
  readonly woodpeckerVersion: string;
  readonly answers: readonly {
    readonly tool: string;
    /** What the answer holds; "task: ..." marks a second answer kept for a task's cost only. */
    readonly label: string;
    readonly args: Record<string, unknown>;
    readonly woodpecker?: unknown;
    readonly result?: Record<string, unknown>;
  }[];
  /** Read tools whose answer the harness cannot produce: tool name → why. */
  readonly unanswered?: Readonly<Record<string, string>>;
}

/** A tool's captured answers as text (the first one first), or why a read tool has none. */
export type AnswerExample =
  | {
      readonly text: string;
      readonly woodpeckerVersion: string;
      /** Its other captured answers, each with what it holds ("from a line"). */
      readonly more: readonly { readonly label: string; readonly text: string }[];
    }
  | { readonly unanswered: string };

/**
 * Tool name → its captured answers as text, or the stated reason it has none; empty when
 * there is no capture file. The first is the tool's first answer that is not kept for a
 * task's cost alone ("task: ..."), the others follow in the order captured.
 */
export async function answerExamples(
  file: string,
  tools: readonly ToolModel[],
): Promise<ReadonlyMap<string, AnswerExample>> {
  const examples = new Map<string, AnswerExample>();
  if (!existsSync(file)) return examples;
  const captured = JSON.parse(readFileSync(file, 'utf8')) as Captured;
  const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
  const shown = new Map<string, { label: string; text: string }[]>();
  const ordered = [
    ...captured.answers.filter((answer) => !answer.label.startsWith('task:')),
    ...captured.answers.filter((answer) => answer.label.startsWith('task:')),
  ];
  for (const answer of ordered) {
    const tool = byName.get(answer.tool);
    if (!tool) continue;
    const texts = shown.get(tool.name) ?? [];
    // A task's answer is shown only where the tool has no other.
    if (answer.label.startsWith('task:') && texts.length > 0) continue;
    let text: string;
    if (answer.result !== undefined) text = JSON.stringify(answer.result);
    else {
      // The model has every field the output step reads (name, output, inputSchema).
      const definition = tool as unknown as ToolDefinition;
      const result = await finishAnswer(
        definition,
        answerOf(definition, answer.args, { status: 200, headers: {}, body: answer.woodpecker }),
        { maxResultBytes: DEFAULT_MAX_RESULT_BYTES, repositoryScope: undefined },
        () => Promise.reject(new Error('an example makes no call')),
      );
      const first = result.content[0];
      text = first?.type === 'text' ? first.text : '';
    }
    texts.push({ label: answer.label, text });
    shown.set(tool.name, texts);
  }
  for (const [name, [first, ...more]] of shown)
    examples.set(name, { text: first!.text, woodpeckerVersion: captured.woodpeckerVersion, more });
  for (const [name, reason] of Object.entries(captured.unanswered ?? {}))
    if (byName.has(name) && !examples.has(name)) examples.set(name, { unanswered: reason });
  return examples;
}

// Stage 1b: Walking and describing guard predicates. Shared by the rules (which check them), the
// model (which compiles them) and the docs (which explain them). What each kind means
// is in predicateKinds.ts; this file only knows `any`, which combines kinds.
import type { Predicate } from '../manifest/manifestTypes.js';
import { predicateFacts, type LeafPredicate } from './predicateKinds.js';

type Segments = readonly (string | number)[];

/** Visits every leaf predicate (those inside `any` too) with its place in the manifest. */
export function forEachPredicate(
  predicate: Predicate,
  at: Segments,
  visit: (leaf: LeafPredicate, at: Segments) => void,
): void {
  if ('any' in predicate) {
    predicate.any.forEach((inner, i) => forEachPredicate(inner, [...at, 'any', i], visit));
  } else {
    visit(predicate, at);
  }
}

export function leavesOf(predicate: Predicate): LeafPredicate[] {
  const leaves: LeafPredicate[] = [];
  forEachPredicate(predicate, [], (leaf) => leaves.push(leaf));
  return leaves;
}

/** "always", or "only when it grants x, lowers y or sets z to public". */
export function conditionOf(when: 'always' | Predicate): string {
  if (when === 'always') return 'always';
  const reasons = leavesOf(when).map((leaf) => predicateFacts(leaf).reason);
  // "it grants a, it lowers b" reads better as "it grants a, lowers b".
  const phrases = reasons.map((reason, i) =>
    i > 0 && reason.startsWith('it ') && (reasons[i - 1] ?? '').startsWith('it ')
      ? reason.slice(3)
      : reason,
  );
  if (phrases.length === 1) return `only when ${phrases[0] ?? ''}`;
  return `only when ${phrases.slice(0, -1).join(', ')} or ${phrases[phrases.length - 1] ?? ''}`;
}

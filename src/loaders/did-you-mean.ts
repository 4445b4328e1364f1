import type { ResourceDefinition } from '../engine/resource/definition.js';
import { didYouMean } from '../engine/did-you-mean.js';

// The nearest name is the engine's (its generic controllers' settings use it too).
export { didYouMean };

/** A suggestion for a misspelled name among the names `known` lists, or none. */
export type Suggest = (given: string, known: () => readonly string[]) => string | undefined;

/**
 * Suggests names as {@link didYouMean}, for at most `budget` names: past it, none. A check that
 * finds thousands of unknown fields reports only the first of them (a document's findings are
 * capped), and comparing each with every declared field would make the check quadratic. `known`
 * is asked only for a suggestion that is computed.
 *
 * @example
 * const suggest = createSuggestionBudget(MAX_FINDINGS_PER_DOCUMENT);
 * suggest('imgae', () => Object.keys(properties)) // 'image', until the budget is spent
 */
export function createSuggestionBudget(budget: number): Suggest {
  let left = budget;
  return (given, known) => {
    if (left <= 0) return undefined;
    left--;
    return didYouMean(given, known());
  };
}

/**
 * The type name closest to a misspelled type or alias: among every definition's type and
 * aliases (and its Kubernetes kind), as the nearest is written.
 *
 * @example
 * didYouMeanType('vmz', definitions) // 'vms'
 */
export function didYouMeanType(
  given: string,
  definitions: Iterable<ResourceDefinition>,
): string | undefined {
  const names: string[] = [];
  for (const d of definitions) {
    names.push(d.type, ...d.allAliases);
    if (d.kubernetes !== undefined) names.push(d.kubernetes.kind);
  }
  // `Gadgets.example.org` is not near `VMs.example.org` for sharing a long suffix: where names
  // share the given suffix, only their names before it are compared.
  const dot = given.indexOf('.');
  const suffix = dot > 0 ? given.slice(dot).toLowerCase() : '';
  const sameSuffix = names.filter(
    (n) => suffix !== '' && n.length > suffix.length && n.toLowerCase().endsWith(suffix),
  );
  if (sameSuffix.length === 0) return didYouMean(given, names);
  const heads = sameSuffix.map((n) => n.slice(0, n.length - suffix.length));
  const head = didYouMean(given.slice(0, dot), heads);
  return head === undefined ? undefined : sameSuffix[heads.indexOf(head)];
}

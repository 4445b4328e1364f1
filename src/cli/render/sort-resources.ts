import type { ResourceGroup } from '../../app/resource-query.js';
import { toDocument } from '../../app/output-document.js';
import {
  collectTemplateValues,
  JsonPathError,
  JsonPathSyntaxError,
  parseTemplate,
  type JsonPathTemplate,
} from '../../loaders/kubernetes/jsonpath.js';
import { compareStrings } from '../../engine/compare-strings.js';
import { CliError, EXIT } from '../exit-codes.js';
import { relaxedJsonPath } from './relaxed-jsonpath.js';

/**
 * `--sort-by`'s JSONPath (`.spec.cpus`, `spec.cpus` or `{.spec.cpus}`, as kubectl takes it),
 * checked now so a malformed one fails before the run.
 *
 * @throws CliError (usage) naming the template and what is wrong with it.
 */
export function parseSortBy(given: string): JsonPathTemplate {
  const source = relaxedJsonPath(given, '--sort-by');
  try {
    return parseTemplate(source);
  } catch (error) {
    if (error instanceof JsonPathSyntaxError) {
      throw new CliError(`--sort-by: bad JSONPath ${JSON.stringify(given)}: ${error.message}`);
    }
    throw error;
  }
}

/** How `sortResourceGroups` treats a path that reaches nothing. */
export interface SortOptions {
  /**
   * Refuse a path that reaches a value in none of the resources (when there are any), as kubectl
   * does ("couldn't find any field with path"): a misspelt path would otherwise leave the order
   * as it was, and say nothing. `get -w` does not ask it: a field may come with a later change.
   */
  readonly requireValue?: boolean;
}

/**
 * Each group's resources ordered by the value `sortBy` reaches in their document (`{ metadata,
 * spec }`, as `-o yaml` prints it), as kubectl's `--sort-by`: numbers by value, anything else by
 * its text; resources without the field first; equal keys keep their order (by id). The groups
 * (one per type) keep theirs. Each key is read once: n log n comparisons of ready keys.
 *
 * @throws CliError (exit 1) when the path cannot run on a resource (an index out of bounds);
 *   (usage, exit 2) with `requireValue`, when it reaches a value in none of them.
 */
export function sortResourceGroups(
  groups: readonly ResourceGroup[],
  sortBy: JsonPathTemplate,
  options: SortOptions = {},
): ResourceGroup[] {
  const keyedGroups = groups.map((group) => ({
    group,
    keyed: group.resources.map((resource, index) => ({
      resource,
      index,
      key: sortKey(
        sortBy,
        toDocument(
          resource,
          group.definition,
          group.ownerKinds === undefined ? {} : { ownerKinds: group.ownerKinds },
        ),
      ),
    })),
  }));
  if (options.requireValue === true) {
    const keys = keyedGroups.flatMap(({ keyed }) => keyed);
    if (keys.length > 0 && keys.every(({ key }) => key.kind === 'none')) {
      throw new CliError(
        `--sort-by: none of the ${keys.length} resource${keys.length === 1 ? '' : 's'} has a value at ${sortBy.source} (the path starts at the document -o yaml prints: .metadata.id, .spec.FIELD)`,
      );
    }
  }
  return keyedGroups.map(({ group, keyed }) => {
    keyed.sort((a, b) => compareKeys(a.key, b.key) || a.index - b.index);
    return { ...group, resources: keyed.map((k) => k.resource) };
  });
}

type SortKey =
  | { readonly kind: 'none' }
  | { readonly kind: 'number'; readonly value: number }
  | {
      readonly kind: 'text';
      readonly value: string;
    };

function sortKey(template: JsonPathTemplate, document: unknown): SortKey {
  let values: unknown[];
  try {
    values = collectTemplateValues(template, document, { allowMissingKeys: true });
  } catch (error) {
    if (error instanceof JsonPathError) {
      throw new CliError(`--sort-by: ${error.message}`, EXIT.findings);
    }
    throw error;
  }
  const value = values[0];
  if (value === undefined || value === null) return { kind: 'none' };
  if (typeof value === 'number') return { kind: 'number', value };
  return { kind: 'text', value: typeof value === 'string' ? value : JSON.stringify(value) };
}

const RANK = { none: 0, number: 1, text: 2 } as const;

function compareKeys(a: SortKey, b: SortKey): number {
  if (a.kind !== b.kind) return RANK[a.kind] - RANK[b.kind];
  if (a.kind === 'number' && b.kind === 'number') return a.value - b.value;
  if (a.kind === 'text' && b.kind === 'text') return compareStrings(a.value, b.value);
  return 0;
}

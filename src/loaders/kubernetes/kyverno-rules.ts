/**
 * The rules of a Kyverno `ClusterPolicy` or `Policy`, as Kyverno checks each when the policy is
 * written (`Rule.Validate` of its `api/kyverno/v1`, and `validateResources`, `validateKinds`
 * and `validateActions` of its `pkg/validation/policy`), in its words:
 *
 * - a rule does one thing: `mutate`, `validate`, `generate` or `verifyImages` (and only the last
 *   has `imageExtractors`), and gives what that needs (`kyverno-rule-actions.ts`);
 * - its `match` gives resources, each filter with kinds, and neither section mixes `any` / `all`
 *   with resources of its own; `match` and `exclude` are checked as filters
 *   (`kyverno-match.ts`), and an `exclude` filter that is one of `match`'s leaves nothing;
 * - a rule matching every kind (`*`) is not applied in the background, names no other kind, does
 *   not generate, verify images or validate with `foreach`, and reads or writes only metadata;
 * - a validating rule of a policy applied in the background names no subresource (`Pod/exec`);
 * - a `generate` (`kyverno-generate.ts`) does not make the kind the rule matches;
 * - a namespaced policy's mutation targets are in its own namespace.
 *
 * Its variables, context entries and conditions: `kyverno-variables.ts`.
 */

import { parse as parseYaml } from 'yaml';
import { isPlainObject } from '../manifest-document.js';
import { forbiddenValue, invalidValue } from './go-field-error.js';
import {
  emptySetProblems,
  excludesAllMatched,
  kindSubresource,
  matchFilters,
  matchProblems,
  nonEmpty,
  type AddProblem,
  type ClusterScope,
  type Path,
} from './kyverno-match.js';
import { generateProblems, otherNamespace } from './kyverno-generate.js';
import { ruleActionProblems } from './kyverno-rule-actions.js';

/** The policy a rule is checked in. */
export interface RulePolicy {
  /** A `Policy`, bound to its namespace. */
  readonly namespaced: boolean;
  /** Its `metadata.namespace`, when the manifest names one. */
  readonly namespace: string | undefined;
  /** Applied in the background (`spec.background`, true unless false). */
  readonly background: boolean;
  /** Its `spec.validationFailureAction` (`Audit` unless `Enforce`). */
  readonly validationFailureAction: unknown;
  readonly isClusterScoped: ClusterScope;
}

/** Reports the problems of a policy's rule, at `at` (see above). */
export function ruleProblems(
  rule: Record<string, unknown>,
  at: Path,
  policy: RulePolicy,
  add: AddProblem,
): void {
  const name = typeof rule.name === 'string' ? rule.name : '';
  const operations = ['mutate', 'validate', 'generate', 'verifyImages'].filter((op) =>
    op === 'verifyImages'
      ? Array.isArray(rule.verifyImages) && rule.verifyImages.some(hasContent)
      : hasContent(rule[op]),
  );
  if (operations.length === 0) {
    add(
      at,
      `No operation defined in the rule '${name}'.(supported operations: mutate,validate,generate,verifyImages)`,
      'key',
    );
  } else if (operations.length > 1) {
    add(
      [...at, operations[1] as string],
      `Multiple operations defined in the rule '${name}', only one operation (mutate,validate,generate,verifyImages) is allowed per rule (it has ${operations.join(', ')})`,
      'key',
    );
  }
  if (rule.imageExtractors != null && !operations.includes('verifyImages')) {
    add(
      [...at, 'imageExtractors'],
      `Invalid rule spec for rule '${name}', imageExtractors can only be defined for verifyImages rule`,
      'key',
    );
  }

  ruleActionProblems(rule, at, policy.validationFailureAction, add);

  const matchRules = { namespaced: policy.namespaced, isClusterScoped: policy.isClusterScoped };
  for (const section of ['match', 'exclude']) {
    const value = rule[section];
    matchProblems(value, [...at, section], matchRules, add);
    if (isPlainObject(value) && (nonEmpty(value.any) || nonEmpty(value.all))) {
      if (hasContent(value.resources)) {
        add(
          [...at, section, 'resources'],
          `can't specify any/all together with ${section} resources`,
          'key',
        );
      }
    }
    for (const [filter, path] of matchFilters(value, [...at, section])) {
      const resources = filter.resources;
      if (!isPlainObject(resources) || !Array.isArray(resources.kinds)) continue;
      const kindsAt = [...path, 'resources', 'kinds'];
      wildcardProblems(resources.kinds, kindsAt, rule, policy, add);
      if (policy.background && hasContent(rule.validate)) {
        subresourceProblems(resources.kinds, kindsAt, add);
      }
    }
  }
  matchKindProblems(rule.match, [...at, 'match'], rule, add);
  emptySetProblems(rule.match, rule.exclude, at, 'Rule', add);
  if (
    isPlainObject(rule.match) &&
    isPlainObject(rule.exclude) &&
    excludesAllMatched(rule.match, rule.exclude)
  ) {
    add(
      [...at, 'exclude'],
      forbiddenValue(
        'Rule is matching an empty set: its exclude covers all its match does (an exclude of any filters beside a match of its own fields is read as one)',
      ),
      'key',
    );
  }

  const generate = rule.generate;
  if (isPlainObject(generate) && hasContent(generate)) {
    generateProblems(generate, [...at, 'generate'], policy, add);
    const matched = isPlainObject(rule.match) ? rule.match.resources : undefined;
    if (
      isPlainObject(matched) &&
      Array.isArray(matched.kinds) &&
      typeof generate.kind === 'string' &&
      matched.kinds.includes(generate.kind)
    ) {
      add(
        [...at, 'generate', 'kind'],
        invalidValue(
          generate.kind,
          'generation kind and match resource kind should not be the same',
        ),
      );
    }
  }

  const mutate = rule.mutate;
  if (policy.namespaced && isPlainObject(mutate) && Array.isArray(mutate.targets)) {
    mutate.targets.forEach((target: unknown, j) => {
      if (!isPlainObject(target) || typeof target.namespace !== 'string') return;
      const namespace = target.namespace;
      if (namespace !== '' && otherNamespace(namespace, policy)) {
        add(
          [...at, 'mutate', 'targets', j, 'namespace'],
          invalidValue(
            namespace,
            'This field can be ignored or should have value of the namespace where the policy is being created',
          ),
        );
      }
    });
  }
}

/**
 * A `match` whose filters do not all give resources with kinds (`validateResources`,
 * `validateMatchKindHelper`): the filters of `any`, else those of `all`, else the section's own.
 */
function matchKindProblems(
  match: unknown,
  at: Path,
  rule: Record<string, unknown>,
  add: AddProblem,
): void {
  if (!isPlainObject(match)) return;
  const list = nonEmpty(match.any) ? 'any' : nonEmpty(match.all) ? 'all' : undefined;
  const filters: [unknown, Path][] =
    list === undefined
      ? [[match, at]]
      : (match[list] as unknown[]).map((filter, i) => [filter, [...at, list, i]]);
  for (const [filter, path] of filters) {
    const resources = isPlainObject(filter) ? filter.resources : undefined;
    if (!hasContent(resources)) {
      add([...path, 'resources'], 'match resources not specified', 'key');
    } else if (!isPlainObject(resources) || !nonEmpty(resources.kinds)) {
      add(
        [...path, 'resources', 'kinds'],
        dealsOnlyWithMetadata(rule)
          ? 'at least one element must be specified in a kind block, the kind attribute is mandatory when working with the resources element'
          : 'policy can only deal with the metadata field of the resource if the rule does not match any kind',
        'key',
      );
    }
  }
}

/**
 * A rule matching every kind (`validateWildcard`): not in the background, with no other kind,
 * not generating, verifying images or validating with `foreach`, and only about metadata.
 */
function wildcardProblems(
  kinds: readonly unknown[],
  at: Path,
  rule: Record<string, unknown>,
  policy: RulePolicy,
  add: AddProblem,
): void {
  const index = kinds.indexOf('*');
  if (index === -1) return;
  const place = [...at, index];
  const validate = isPlainObject(rule.validate) ? rule.validate : undefined;
  let detail: string | undefined;
  if (policy.background) {
    detail =
      'wildcard policy not allowed in background mode. Set spec.background=false to disable background mode for this policy rule';
  } else if (kinds.length > 1) {
    detail = 'wildcard policy can not deal with more than one kind';
  } else if (
    hasContent(rule.generate) ||
    (Array.isArray(rule.verifyImages) && rule.verifyImages.some(hasContent)) ||
    validate?.foreach != null
  ) {
    detail = 'wildcard policy does not support rule type';
  } else if (
    ((validate !== undefined && (validate.pattern != null || validate.anyPattern != null)) ||
      hasContent(rule.mutate)) &&
    !dealsOnlyWithMetadata(rule)
  ) {
    detail =
      'policy can only deal with the metadata field of the resource if the rule does not match any kind';
  }
  if (detail !== undefined) add(place, invalidValue('*', detail));
}

/**
 * The subresources a validating rule of a policy applied in the background names (`validKinds`):
 * a background scan reviews existing resources, never a request to a subresource.
 */
function subresourceProblems(kinds: readonly unknown[], at: Path, add: AddProblem): void {
  kinds.forEach((kind, i) => {
    if (typeof kind !== 'string' || kind === '*') return;
    const subresource = kindSubresource(kind);
    if (subresource === '') return;
    add(
      [...at, i],
      invalidValue(
        kind,
        `background scan enabled with subresource ${kind}: a policy applied in the background (spec.background, true unless false) reviews existing resources, not requests to their ${subresource === '*' ? 'subresources' : `${subresource} subresource`}; set spec.background: false`,
      ),
    );
  });
}

/**
 * Whether a rule reads and writes only its resources' metadata (`ruleOnlyDealsWithResourceMetaData`):
 * its strategic merge patch, JSON patch, pattern and any patterns touch `metadata` only.
 */
function dealsOnlyWithMetadata(rule: Record<string, unknown>): boolean {
  const onlyMetadata = (value: unknown): boolean =>
    !isPlainObject(value) || Object.keys(value).every((key) => key === 'metadata');
  const mutate = rule.mutate;
  if (isPlainObject(mutate)) {
    if (!onlyMetadata(mutate.patchStrategicMerge)) return false;
    if (typeof mutate.patchesJson6902 === 'string' && mutate.patchesJson6902 !== '') {
      for (const path of jsonPatchPaths(mutate.patchesJson6902)) {
        if (!path.startsWith('/metadata')) return false;
      }
    }
  }
  const validate = rule.validate;
  if (isPlainObject(validate)) {
    if (!onlyMetadata(validate.pattern)) return false;
    if (Array.isArray(validate.anyPattern) && !validate.anyPattern.every(onlyMetadata)) {
      return false;
    }
  }
  return true;
}

/** The paths of a JSON patch's operations (none when it does not parse). */
function jsonPatchPaths(patch: string): string[] {
  let operations: unknown;
  try {
    operations = parseYaml(patch, { maxAliasCount: 0, logLevel: 'silent' });
  } catch {
    return [];
  }
  if (!Array.isArray(operations)) return [];
  return operations.flatMap((operation: unknown) =>
    isPlainObject(operation) && typeof operation.path === 'string' ? [operation.path] : [],
  );
}

/**
 * Whether a section holds something, as Kyverno's `Has*` read it (not Go's zero value): a mapping
 * with a field that is not null, `''`, `false` or `0`.
 */
function hasContent(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    Object.values(value).some((v) => v != null && v !== '' && v !== false && v !== 0)
  );
}

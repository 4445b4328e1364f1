/**
 * What a Kyverno rule does, checked as Kyverno checks it when the policy is written (the
 * `Validate` of its `pkg/policy/validate`, `pkg/policy/mutate` and `pkg/policy/generate`, but the
 * permissions they ask the cluster for), in its words:
 *
 * - a `validate` gives one of `pattern`, `anyPattern`, `deny`, `foreach`, `podSecurity`, `cel`
 *   and `manifests`; each of its `foreach` items a `list` and one of `pattern`, `anyPattern`,
 *   `deny` or a nested `foreach`; its `pattern` and `anyPattern` use the anchors a validation
 *   has (condition `()`, existence `^()` over a non-empty list, equality `=()`, negation `X()`,
 *   global `<()`), not `+()`, which adds (a `foreach` item's are not checked, as Kyverno leaves
 *   them);
 * - a `mutate` gives one of `foreach`, `patchStrategicMerge` and `patchesJson6902`, and so does
 *   each `foreach` item (or a nested `foreach`, alone);
 * - a `generate`'s `data` has no anchors, and its `cloneList` selector no wildcards;
 * - a `foreach`'s `list` is JMESPath Kyverno reads (else each request's rule fails on it);
 * - `celPreconditions` go with `validate.cel` only;
 * - the labels and annotations a pattern or patch writes are strings;
 * - a `validate.podSecurity`'s excluded controls (`kyverno-pod-security.ts`), the image
 *   verifications (`kyverno-verify-images.ts`) and the conditions (`kyverno-conditions.ts`) are
 *   what Kyverno takes.
 */

import { isPlainObject } from '../manifest-document.js';
import { invalidValue } from './go-field-error.js';
import { kyvernoJmespathError } from './kyverno-jmespath-loader.js';
import type { AddProblem, Path } from './kyverno-match.js';
import { podSecurityExcludeProblems } from './kyverno-pod-security.js';
import { ruleConditionProblems } from './kyverno-conditions.js';
import { verifyImagesProblems } from './kyverno-verify-images.js';

/** Kyverno's anchors: `(key)`, `^(key)`, `=(key)`, `X(key)`, `<(key)`, `+(key)`. */
const ANCHOR = /^([+<=X^])?\((.+)\)$/;
/** How deep a pattern is walked. */
const MAX_DEPTH = 64;

/** Reports the problems of what rule `rule` (at `at`) does (see above). */
export function ruleActionProblems(
  rule: Record<string, unknown>,
  at: Path,
  policyAction: unknown,
  add: AddProblem,
): void {
  const { validate, mutate, generate } = rule;
  if (isPlainObject(validate)) {
    validateProblems(validate, [...at, 'validate'], add);
    const podSecurity = validate.podSecurity;
    if (isPlainObject(podSecurity)) {
      podSecurityExcludeProblems(
        podSecurity.exclude,
        [...at, 'validate', 'podSecurity', 'exclude'],
        podSecurity.level,
        add,
      );
    }
  }
  labelValueProblems(rule, at, add);
  verifyImagesProblems(rule.verifyImages, [...at, 'verifyImages'], policyAction, add);
  ruleConditionProblems(rule, at, add);
  if (isPlainObject(mutate)) {
    mutateProblems(mutate, [...at, 'mutate'], add);
  }
  if (isPlainObject(generate)) {
    if (generate.data != null) {
      patternAnchorProblems(generate.data, [...at, 'generate', 'data'], 'generate', add);
    }
    const cloneList = generate.cloneList;
    const selector = isPlainObject(cloneList) ? cloneList.selector : undefined;
    if (isPlainObject(selector) && /[*?]/.test(JSON.stringify(selector))) {
      add(
        [...at, 'generate', 'cloneList', 'selector'],
        'wildcard characters `*/?` not supported',
        'key',
      );
    }
  }
  for (const [section, value] of [
    ['validate', validate],
    ['mutate', mutate],
    ['generate', generate],
  ] as const) {
    if (isPlainObject(value)) foreachListProblems(value.foreach, [...at, section, 'foreach'], add);
  }
  const celValidate = isPlainObject(validate) && validate.cel != null;
  if (rule.celPreconditions != null && !celValidate) {
    add([...at, 'celPreconditions'], 'celPrecondition can only be used with validate.cel', 'key');
  }
}

/** A `validate` (`validateElements`, `validateForEach`, and its patterns' anchors). */
function validateProblems(validate: Record<string, unknown>, at: Path, add: AddProblem): void {
  const manifests = validate.manifests;
  const given = [
    validate.pattern != null,
    validate.anyPattern != null,
    validate.deny != null,
    validate.foreach != null,
    validate.podSecurity != null,
    validate.cel != null,
    isPlainObject(manifests) &&
      Array.isArray(manifests.attestors) &&
      manifests.attestors.length > 0,
  ].filter(Boolean).length;
  if (given === 0) {
    add(at, 'one of pattern, anyPattern, deny, foreach, cel must be specified', 'key');
  } else if (given > 1) {
    add(at, 'only one of pattern, anyPattern, deny, foreach, cel can be specified', 'key');
  }
  validatePatternProblems(validate, at, add);
  foreachValidateProblems(validate.foreach, [...at, 'foreach'], add, 0);
}

/** The anchors of a validation's `pattern` and `anyPattern`'s patterns. */
function validatePatternProblems(
  validate: Record<string, unknown>,
  at: Path,
  add: AddProblem,
): void {
  if (validate.pattern != null) {
    patternAnchorProblems(validate.pattern, [...at, 'pattern'], 'validate', add);
  }
  if (Array.isArray(validate.anyPattern)) {
    validate.anyPattern.forEach((pattern: unknown, i) =>
      patternAnchorProblems(pattern, [...at, 'anyPattern', i], 'validate', add),
    );
  }
}

/**
 * The label and annotation values a rule's pattern or patch writes (`isLabelAndAnnotationsString`):
 * strings, as on a resource; `true`, `1.0` or nothing unquoted in YAML are not. Kyverno reads a
 * validation's `pattern` (or each `anyPattern`), or its first `foreach` item's, and a mutation's
 * `patchStrategicMerge`, or its first `foreach` item's: their `metadata` and
 * `spec.template.metadata`.
 */
function labelValueProblems(rule: Record<string, unknown>, at: Path, add: AddProblem): void {
  const patterns: [unknown, Path][] = [];
  const firstOfForeach = (foreach: unknown, field: string, path: Path): boolean => {
    if (!Array.isArray(foreach) || foreach.length === 0) return false;
    const index = foreach.findIndex((item) => isPlainObject(item) && isPlainObject(item[field]));
    if (index !== -1) {
      patterns.push([(foreach[index] as Record<string, unknown>)[field], [...path, index, field]]);
    }
    return true;
  };
  const { validate, mutate } = rule;
  if (isPlainObject(validate)) {
    const path = [...at, 'validate'];
    if (!firstOfForeach(validate.foreach, 'pattern', [...path, 'foreach'])) {
      if (isPlainObject(validate.pattern)) patterns.push([validate.pattern, [...path, 'pattern']]);
      else if (Array.isArray(validate.anyPattern)) {
        validate.anyPattern.forEach((pattern: unknown, i) =>
          patterns.push([pattern, [...path, 'anyPattern', i]]),
        );
      }
    }
  }
  if (isPlainObject(mutate)) {
    const path = [...at, 'mutate'];
    if (!firstOfForeach(mutate.foreach, 'patchStrategicMerge', [...path, 'foreach'])) {
      patterns.push([mutate.patchStrategicMerge, [...path, 'patchStrategicMerge']]);
    }
  }
  for (const [pattern, path] of patterns) {
    if (!isPlainObject(pattern)) continue;
    const spec = pattern.spec;
    const template = isPlainObject(spec) ? spec.template : undefined;
    const places: [unknown, Path][] = [
      [pattern.metadata, [...path, 'metadata']],
      [
        isPlainObject(template) ? template.metadata : undefined,
        [...path, 'spec', 'template', 'metadata'],
      ],
    ];
    for (const [metadata, where] of places) {
      if (!isPlainObject(metadata)) continue;
      for (const field of ['labels', 'annotations']) {
        const values = metadata[field];
        if (!isPlainObject(values)) continue;
        for (const [key, value] of Object.entries(values)) {
          if (typeof value === 'string') continue;
          add(
            [...where, field, key],
            invalidValue(
              value,
              'labels and annotations supports only string values, "use double quotes around the non string values"',
            ),
          );
        }
      }
    }
  }
}

/** What Kyverno's JMESPath says of a refused query, before the reason. */
const REFUSED = 'Kyverno refuses the policy: ';

/**
 * A `foreach`'s `list`, JMESPath that Kyverno reads only when a request comes: one that does not
 * parse, or calls a function Kyverno lacks, fails each request's rule (the policy is taken). A
 * list that holds a variable is known only then.
 */
function listProblems(list: unknown, at: Path, add: AddProblem): void {
  if (typeof list !== 'string' || list === '' || list.includes('{{')) return;
  const error = kyvernoJmespathError(list);
  if (error === undefined) return;
  add(
    at,
    invalidValue(
      list,
      error.startsWith(REFUSED)
        ? `Kyverno takes the policy but fails each request's rule on this list: ${error.slice(REFUSED.length)}`
        : error,
    ),
  );
}

/** The lists of a `foreach` (of a validation, mutation or generation) and of those nested in it. */
function foreachListProblems(foreach: unknown, at: Path, add: AddProblem, depth = 0): void {
  if (!Array.isArray(foreach) || depth > 8) return;
  foreach.forEach((item: unknown, i) => {
    if (!isPlainObject(item)) return;
    listProblems(item.list, [...at, i, 'list'], add);
    foreachListProblems(item.foreach, [...at, i, 'foreach'], add, depth + 1);
  });
}

/** A validation's `foreach` items: a list, and one thing each (nested ones too). */
function foreachValidateProblems(foreach: unknown, at: Path, add: AddProblem, depth: number): void {
  if (!Array.isArray(foreach) || depth > 8) return;
  foreach.forEach((item: unknown, i) => {
    if (!isPlainObject(item)) return;
    const here = [...at, i];
    if (typeof item.list !== 'string' || item.list === '') {
      add([...here, 'list'], 'foreach.list is required', 'key');
    }
    const given = [
      item.pattern != null,
      item.anyPattern != null,
      item.deny != null,
      Array.isArray(item.foreach) && item.foreach.length > 0,
    ].filter(Boolean).length;
    if (given === 0) {
      add(here, 'one of pattern, anyPattern, deny, or a nested foreach must be specified', 'key');
    } else if (given > 1) {
      add(
        here,
        'only one of pattern, anyPattern, deny, or a nested foreach can be specified',
        'key',
      );
    }
    foreachValidateProblems(item.foreach, [...here, 'foreach'], add, depth + 1);
  });
}

/** A `mutate`: one way to patch, and so each of its `foreach` items. */
function mutateProblems(mutate: Record<string, unknown>, at: Path, add: AddProblem): void {
  const strategic = mutate.patchStrategicMerge != null;
  const json = typeof mutate.patchesJson6902 === 'string' && mutate.patchesJson6902 !== '';
  if (Array.isArray(mutate.foreach) && mutate.foreach.length > 0) {
    if (strategic || json) {
      add(
        [...at, 'foreach'],
        'only one of `foreach`, `patchStrategicMerge`, or `patchesJson6902` is allowed',
        'key',
      );
    }
    foreachMutateProblems(mutate.foreach, [...at, 'foreach'], add, 0);
  } else if (strategic && json) {
    add(
      [...at, 'patchesJson6902'],
      'only one of `patchStrategicMerge` or `patchesJson6902` is allowed',
      'key',
    );
  }
}

/** A mutation's `foreach` items: a nested `foreach` alone, or one patch. */
function foreachMutateProblems(foreach: unknown[], at: Path, add: AddProblem, depth: number): void {
  if (depth > 8) return;
  foreach.forEach((item: unknown, i) => {
    if (!isPlainObject(item)) return;
    const here = [...at, i];
    const strategic = item.patchStrategicMerge != null;
    const json = typeof item.patchesJson6902 === 'string' && item.patchesJson6902 !== '';
    if (Array.isArray(item.foreach) && item.foreach.length > 0) {
      if (item.context != null || item.preconditions != null || strategic || json) {
        add(here, 'a nested foreach cannot contain other declarations', 'key');
      }
      foreachMutateProblems(item.foreach, [...here, 'foreach'], add, depth + 1);
    } else if (strategic === json) {
      add(here, 'only one of `patchStrategicMerge` or `patchesJson6902` is allowed', 'key');
    }
  });
}

/**
 * The anchors of a pattern (`ValidatePattern`): for a validation, all but `+()`, an existence
 * anchor's value a non-empty list; for a generated resource's data, none.
 */
function patternAnchorProblems(
  pattern: unknown,
  at: Path,
  use: 'validate' | 'generate',
  add: AddProblem,
  depth = 0,
): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(pattern)) {
    pattern.forEach((item: unknown, i) =>
      patternAnchorProblems(item, [...at, i], use, add, depth + 1),
    );
    return;
  }
  if (!isPlainObject(pattern)) return;
  for (const [key, value] of Object.entries(pattern)) {
    const here = [...at, key];
    const anchor = key.trim().match(ANCHOR);
    if (anchor !== null) {
      const modifier = anchor[1] ?? '';
      if (use === 'generate') {
        add(here, `anchors not supported on generate resources: unsupported anchor ${key}`, 'key');
      } else if (modifier === '+') {
        add(
          here,
          `unsupported anchor ${key}: +() adds a field in a mutation; a validation checks with (), ^(), =(), X() and <()`,
          'key',
        );
      } else if (modifier === '^' && !(Array.isArray(value) && value.length > 0)) {
        add(
          here,
          Array.isArray(value)
            ? 'existence anchor: should have at least one value'
            : 'existence anchor should have value of type list',
          'key',
        );
      }
    }
    patternAnchorProblems(value, here, use, add, depth + 1);
  }
}

/**
 * What the API server checks of a pod's affinity in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateAffinity` and the functions it calls): node selector terms
 * (`In` and `NotIn` need values, `Exists` and `DoesNotExist` take none, `Gt` and `Lt` exactly one;
 * keys are label keys and, in required terms, values label values; a field selector names
 * `metadata.name` with one node name), pod affinity terms (label and namespace selectors,
 * namespace names, `matchLabelKeys` and `mismatchLabelKeys`, a `topologyKey` that is a label key)
 * and weights from 1 to 100. Each problem at its field, in the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { MAX_LABEL_MESSAGE } from './container-checks.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import {
  DNS1123_LABEL,
  DNS1123_LABEL_MESSAGE,
  dns1123SubdomainProblems,
  labelNameProblems,
  labelSelectorProblems,
  labelValueProblems,
  type Add,
} from './label-syntax.js';
import { podSpecOf } from './pod-spec-paths.js';

const WEIGHT_MESSAGE = 'must be in the range 1-100';
const NODE_SELECTOR_OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']);
/**
 * The first release that keeps `matchLabelKeys` and `mismatchLabelKeys` of a pod affinity term
 * (`MatchLabelKeysInPodAffinity`, beta and on by default from 1.31; before, the fields are
 * dropped on create and never validated).
 */
const LABEL_KEYS_SINCE: KubernetesRelease = '1.31';

/** The affinity problems of a built-in document of `group`/`kind` of `release`. */
export function affinityProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod || !isPlainObject(pod.spec.affinity)) return [];
  const { problems, add } = pod;
  const affinity = pod.spec.affinity;
  const labelKeys = releaseAtLeast(release, LABEL_KEYS_SINCE);
  const under =
    (...prefix: (string | number)[]): Add =>
    (path, keyword, message) =>
      add(['affinity', ...prefix, ...path], keyword, message);
  if (isPlainObject(affinity.nodeAffinity)) {
    nodeAffinityProblems(affinity.nodeAffinity, under('nodeAffinity'));
  }
  for (const field of ['podAffinity', 'podAntiAffinity']) {
    const terms = affinity[field];
    if (isPlainObject(terms)) podAffinityProblems(terms, labelKeys, under(field));
  }
  return problems;
}

/** `validateNodeAffinity`. */
function nodeAffinityProblems(affinity: Record<string, unknown>, add: Add): void {
  const required = affinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (isPlainObject(required)) {
    nodeSelectorProblems(required, (path, keyword, message) =>
      add(['requiredDuringSchedulingIgnoredDuringExecution', ...path], keyword, message),
    );
  }
  const preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution;
  if (!Array.isArray(preferred)) return;
  // `ValidatePreferredSchedulingTerms`: invalid label values are allowed in preferred terms.
  preferred.forEach((term: unknown, i) => {
    if (!isPlainObject(term)) return;
    const at: Add = (path, keyword, message) =>
      add(['preferredDuringSchedulingIgnoredDuringExecution', i, ...path], keyword, message);
    weightProblems(term.weight, at);
    nodeSelectorTermProblems(term.preference, false, (path, keyword, message) =>
      at(['preference', ...path], keyword, message),
    );
  });
}

/**
 * `ValidateNodeSelector` of a required selector (a pod's required node affinity, a
 * PersistentVolume's node affinity): a term at least (an absent list is the OpenAPI's
 * `required`), each term's values label values.
 */
export function nodeSelectorProblems(selector: Record<string, unknown>, add: Add): void {
  const terms = selector.nodeSelectorTerms;
  if (Array.isArray(terms) && terms.length === 0) {
    add(
      ['nodeSelectorTerms'],
      'affinity',
      requiredValue('must have at least one node selector term'),
    );
  } else if (Array.isArray(terms)) {
    terms.forEach((term: unknown, i) => {
      nodeSelectorTermProblems(term, true, (path, keyword, message) =>
        add(['nodeSelectorTerms', i, ...path], keyword, message),
      );
    });
  }
}

/** `ValidateNodeSelectorTerm`; `checkValues`: whether label values are checked. */
function nodeSelectorTermProblems(term: unknown, checkValues: boolean, add: Add): void {
  if (!isPlainObject(term)) return;
  if (Array.isArray(term.matchExpressions)) {
    term.matchExpressions.forEach((requirement: unknown, j) => {
      if (!isPlainObject(requirement)) return;
      nodeSelectorRequirementProblems(requirement, checkValues, (path, keyword, message) =>
        add(['matchExpressions', j, ...path], keyword, message),
      );
    });
  }
  if (Array.isArray(term.matchFields)) {
    term.matchFields.forEach((requirement: unknown, j) => {
      if (!isPlainObject(requirement)) return;
      nodeFieldSelectorProblems(requirement, (path, keyword, message) =>
        add(['matchFields', j, ...path], keyword, message),
      );
    });
  }
}

/** `ValidateNodeSelectorRequirement`. */
function nodeSelectorRequirementProblems(
  requirement: Record<string, unknown>,
  checkValues: boolean,
  add: Add,
): void {
  const values = Array.isArray(requirement.values) ? requirement.values : [];
  switch (requirement.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        add(
          ['values'],
          'affinity',
          requiredValue("must be specified when `operator` is 'In' or 'NotIn'"),
        );
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        add(
          ['values'],
          'affinity',
          forbiddenValue("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) {
        add(
          ['values'],
          'affinity',
          requiredValue("must be specified single value when `operator` is 'Lt' or 'Gt'"),
        );
      }
      break;
    default:
    // Another operator is the OpenAPI's closed set's to report.
  }
  if (typeof requirement.key === 'string') labelNameProblems(requirement.key, ['key'], add);
  if (!checkValues) return;
  values.forEach((value: unknown, k) => {
    if (typeof value !== 'string') return;
    for (const message of labelValueProblems(value)) {
      add(['values', k], 'label-value', invalidValue(value, message));
    }
  });
}

/** `ValidateNodeFieldSelectorRequirement`: only `metadata.name`, `In` or `NotIn` one node name. */
function nodeFieldSelectorProblems(requirement: Record<string, unknown>, add: Add): void {
  const values = Array.isArray(requirement.values) ? requirement.values : [];
  const operator = requirement.operator;
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) {
      add(
        ['values'],
        'affinity',
        requiredValue(
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
    }
  } else if (typeof operator === 'string' && NODE_SELECTOR_OPERATORS.has(operator)) {
    add(['operator'], 'affinity', invalidValue(operator, 'not a valid selector operator'));
  }
  const key = requirement.key;
  if (typeof key !== 'string') return;
  if (key !== 'metadata.name') {
    add(['key'], 'affinity', invalidValue(key, 'not a valid field selector key'));
    return;
  }
  values.forEach((value: unknown, k) => {
    if (typeof value !== 'string') return;
    for (const message of dns1123SubdomainProblems(value)) {
      add(['values', k], 'affinity', invalidValue(value, message));
    }
  });
}

/** `validatePodAffinity`, `validatePodAntiAffinity`. */
function podAffinityProblems(
  affinity: Record<string, unknown>,
  labelKeys: boolean,
  add: Add,
): void {
  const required = affinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (Array.isArray(required)) {
    required.forEach((term: unknown, i) => {
      if (!isPlainObject(term)) return;
      podAffinityTermProblems(term, labelKeys, (path, keyword, message) =>
        add(['requiredDuringSchedulingIgnoredDuringExecution', i, ...path], keyword, message),
      );
    });
  }
  const preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution;
  if (!Array.isArray(preferred)) return;
  preferred.forEach((weighted: unknown, i) => {
    if (!isPlainObject(weighted)) return;
    const at: Add = (path, keyword, message) =>
      add(['preferredDuringSchedulingIgnoredDuringExecution', i, ...path], keyword, message);
    weightProblems(weighted.weight, at);
    const term = weighted.podAffinityTerm;
    if (isPlainObject(term)) {
      podAffinityTermProblems(term, labelKeys, (path, keyword, message) =>
        at(['podAffinityTerm', ...path], keyword, message),
      );
    }
  });
}

/** `validatePodAffinityTerm`. */
function podAffinityTermProblems(
  term: Record<string, unknown>,
  labelKeys: boolean,
  add: Add,
): void {
  // `ValidatePodAffinityTermSelector`.
  for (const field of ['labelSelector', 'namespaceSelector']) {
    labelSelectorProblems(term[field], (path, keyword, message) =>
      add([field, ...path], keyword, message),
    );
  }
  if (Array.isArray(term.namespaces)) {
    // Go reports these at `namespace`; the finding points at the name as written.
    term.namespaces.forEach((name: unknown, i) => {
      if (typeof name !== 'string') return;
      if (name.length > 63) {
        add(['namespaces', i], 'dns-1123-label', invalidValue(name, MAX_LABEL_MESSAGE));
      }
      if (!DNS1123_LABEL.test(name)) {
        add(['namespaces', i], 'dns-1123-label', invalidValue(name, DNS1123_LABEL_MESSAGE));
      }
    });
  }
  if (labelKeys) labelKeysProblems(term, add);
  const topologyKey = term.topologyKey;
  // An absent key is the OpenAPI's `required` to report.
  if (typeof topologyKey !== 'string') return;
  if (topologyKey === '') add(['topologyKey'], 'required', requiredValue('can not be empty'));
  labelNameProblems(topologyKey, ['topologyKey'], add);
}

/** `validateMatchLabelKeysAndMismatchLabelKeys`, as far as a manifest can break it. */
function labelKeysProblems(term: Record<string, unknown>, add: Add): void {
  const keysOf = (field: string): unknown[] =>
    Array.isArray(term[field]) ? (term[field] as unknown[]) : [];
  const selector = term.labelSelector;
  const hasSelector = selector !== undefined && selector !== null;
  for (const field of ['matchLabelKeys', 'mismatchLabelKeys']) {
    const keys = keysOf(field);
    if (keys.length === 0) continue;
    if (!hasSelector) {
      add(
        [field],
        'affinity',
        forbiddenValue('must not be specified when labelSelector is not set'),
      );
      continue;
    }
    keys.forEach((key, i) => {
      if (typeof key === 'string') labelNameProblems(key, [field, i], add);
    });
  }
  const mismatch = new Set(keysOf('mismatchLabelKeys'));
  keysOf('matchLabelKeys').forEach((key, i) => {
    if (typeof key === 'string' && mismatch.has(key)) {
      add(
        ['matchLabelKeys', i],
        'affinity',
        invalidValue(key, 'exists in both matchLabelKeys and mismatchLabelKeys'),
      );
    }
  });
}

/** A preferred term's weight: 1 to 100. */
function weightProblems(weight: unknown, add: Add): void {
  // A weight that is no int32 is the schema's `format` to report.
  if (typeof weight !== 'number' || !Number.isInteger(weight) || Math.abs(weight) >= 2 ** 31) {
    return;
  }
  if (weight <= 0 || weight > 100)
    add(['weight'], 'affinity', invalidValue(weight, WEIGHT_MESSAGE));
}

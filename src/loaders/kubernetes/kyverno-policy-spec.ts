/**
 * The spec of a Kyverno `ClusterPolicy` or `Policy` as Kyverno checks it when the policy is
 * written (`Spec.Validate` of its `api/kyverno/v1`, and its `pkg/validation/policy`), beyond
 * what its CRD's schema says, in Kyverno's words:
 *
 * - rule names are unique;
 * - a webhook timeout is 1 to 30 seconds, and a deprecated field is not set beside the one that
 *   replaced it (`webhookTimeoutSeconds`, `failurePolicy`), nor `generateExistingOnPolicyUpdate`;
 * - a rule that mutates existing resources on a policy update names its targets;
 * - a `Policy` (namespaced) has no `validationFailureActionOverrides`; a `ClusterPolicy`'s (and
 *   its rules' `failureActionOverrides`) neither audit and enforce one namespace nor overlap
 *   an audit pattern with an enforce one;
 * - a policy is applied on admission or in the background, and one applied in the background only
 *   (`admission: false`) only validates;
 * - its name has at most 63 characters, and its autogen annotation is not `all`.
 *
 * Each rule: `kyverno-rules.ts`. Its variables, context entries and conditions:
 * `kyverno-variables.ts`.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { forbiddenValue, goFieldPath, invalidValue } from './go-field-error.js';
import { type AddProblem, type ClusterScope, type Path } from './kyverno-match.js';
import { wildcard } from './kyverno-wildcard.js';
import { ruleProblems } from './kyverno-rules.js';

/** The problems of a Kyverno policy's spec (see above). */
export function kyvernoPolicySpecProblems(
  document: Record<string, unknown>,
  kind: string,
  isClusterScoped: ClusterScope,
): SchemaProblem[] {
  return specProblems(document, (spec, add) => {
    const rules = Array.isArray(spec.rules) ? spec.rules : [];
    policyMetadataProblems(document.metadata, add);
    const metadata = isPlainObject(document.metadata) ? document.metadata : {};
    const policy = {
      namespaced: kind === 'Policy',
      namespace: typeof metadata.namespace === 'string' ? metadata.namespace : undefined,
      background: spec.background !== false,
      validationFailureAction: spec.validationFailureAction,
      isClusterScoped,
    };
    rules.forEach((rule: unknown, i) => {
      if (isPlainObject(rule)) ruleProblems(rule, ['spec', 'rules', i], policy, add);
    });

    const names = new Set<string>();
    rules.forEach((rule: unknown, i) => {
      if (!isPlainObject(rule) || typeof rule.name !== 'string') return;
      if (names.has(rule.name)) {
        add(
          ['spec', 'rules', i, 'name'],
          invalidValue(rule.name, `Duplicate rule name: '${rule.name}'`),
        );
      }
      names.add(rule.name);
    });

    const webhook = isPlainObject(spec.webhookConfiguration)
      ? spec.webhookConfiguration
      : undefined;
    if (spec.webhookTimeoutSeconds != null && webhook?.timeoutSeconds != null) {
      add(
        ['spec', 'webhookTimeoutSeconds'],
        forbiddenValue(
          'remove the deprecated field and use spec.webhookConfiguration.timeoutSeconds instead',
        ),
        'key',
      );
    }
    if (spec.failurePolicy != null && webhook?.failurePolicy != null) {
      add(
        ['spec', 'failurePolicy'],
        forbiddenValue(
          'remove the deprecated field and use spec.webhookConfiguration.failurePolicy instead',
        ),
        'key',
      );
    }
    if (spec.generateExistingOnPolicyUpdate != null) {
      add(
        ['spec', 'generateExistingOnPolicyUpdate'],
        forbiddenValue(
          'remove the deprecated field and use spec.generate[*].generateExisting instead',
        ),
        'key',
      );
    }
    for (const [value, path] of [
      [spec.webhookTimeoutSeconds, ['spec', 'webhookTimeoutSeconds']],
      [webhook?.timeoutSeconds, ['spec', 'webhookConfiguration', 'timeoutSeconds']],
    ] as const) {
      if (typeof value === 'number' && (value < 1 || value > 30)) {
        add(path, invalidValue(value, 'the timeout value must be between 1 and 30 seconds'));
      }
    }

    rules.forEach((rule: unknown, i) => {
      if (!isPlainObject(rule) || !isPlainObject(rule.mutate)) return;
      const mutate = rule.mutate;
      const onUpdate =
        spec.mutateExistingOnPolicyUpdate === true || mutate.mutateExistingOnPolicyUpdate === true;
      if (onUpdate && !(Array.isArray(mutate.targets) && mutate.targets.length > 0)) {
        add(
          mutate.mutateExistingOnPolicyUpdate === true
            ? ['spec', 'rules', i, 'mutate', 'mutateExistingOnPolicyUpdate']
            : ['spec', 'mutateExistingOnPolicyUpdate'],
          forbiddenValue(
            `rules[${i}].mutate.targets has to be specified when mutateExistingOnPolicyUpdate is set`,
          ),
          'key',
        );
      }
    });

    const overrides = spec.validationFailureActionOverrides;
    if (kind === 'ClusterPolicy') {
      overrideNamespaceProblems(overrides, ['spec', 'validationFailureActionOverrides'], add);
      rules.forEach((rule: unknown, i) => {
        if (!isPlainObject(rule) || !isPlainObject(rule.validate)) return;
        overrideNamespaceProblems(
          rule.validate.failureActionOverrides,
          ['spec', 'rules', i, 'validate', 'failureActionOverrides'],
          add,
        );
      });
    }
    if (kind === 'Policy' && Array.isArray(overrides) && overrides.length > 0) {
      add(
        ['spec', 'validationFailureActionOverrides'],
        forbiddenValue(
          'Use of validationFailureActionOverrides is supported only with ClusterPolicy',
        ),
        'key',
      );
    }

    if (spec.admission === false) {
      if (spec.background === false) {
        add(
          ['spec', 'admission'],
          'disabling both admission and background processing is not allowed',
        );
      } else {
        const other = rules.findIndex(
          (rule: unknown) =>
            isPlainObject(rule) &&
            (rule.mutate != null || rule.generate != null || rule.verifyImages != null),
        );
        if (other !== -1) {
          add(
            ['spec', 'admission'],
            `disabling admission processing is only allowed with validation policies (rules[${other}] does not only validate)`,
          );
        }
      }
    }
  });
}

/**
 * A ClusterPolicy's failure action overrides (`validateNamespaces`): no namespace both audited and
 * enforced, by name or by a wildcard pattern, and no audit pattern overlapping an enforce one.
 * Kyverno stops at the first conflict, and so does this.
 */
function overrideNamespaceProblems(overrides: unknown, at: Path, add: AddProblem): void {
  if (!Array.isArray(overrides)) return;
  const named = { audit: new Set<string>(), enforce: new Set<string>() };
  const patterns = { audit: new Set<string>(), enforce: new Set<string>() };
  for (const [i, override] of overrides.entries()) {
    if (!isPlainObject(override) || !Array.isArray(override.namespaces)) continue;
    const action = override.action;
    if (typeof action !== 'string' || !/^(audit|enforce)$/i.test(action)) continue;
    const mine = action.toLowerCase() === 'enforce' ? 'enforce' : 'audit';
    const other = mine === 'enforce' ? 'audit' : 'enforce';
    const place = [...at, i, 'namespaces'];
    const namespaces = override.namespaces.filter((n): n is string => typeof n === 'string');
    const plain = namespaces.filter((n) => !/[*?]/.test(n));
    const both = [...new Set(plain.filter((n) => named[other].has(n)))].sort();
    if (both.length > 0) {
      add(place, `conflicting namespaces found in path: ${goFieldPath(place)}: ${both.join(', ')}`);
      return;
    }
    for (const n of namespaces) (/[*?]/.test(n) ? patterns[mine] : named[mine]).add(n);
    const conflict =
      patternMatch(patterns.audit, named.enforce, 'matches with namespace') ??
      patternMatch(patterns.enforce, named.audit, 'matches with namespace') ??
      patternMatch(patterns.audit, patterns.enforce, 'conflicts with the pattern') ??
      patternMatch(patterns.enforce, patterns.audit, 'conflicts with the pattern');
    if (conflict !== undefined) {
      add(place, `path: ${goFieldPath(place)}: ${conflict}`);
      return;
    }
  }
}

/**
 * The first of `names` (sorted) that one of `patterns` (sorted) matches, said as Kyverno says
 * it (`MatchPatterns`).
 */
function patternMatch(
  patterns: ReadonlySet<string>,
  names: ReadonlySet<string>,
  relation: string,
): string | undefined {
  const matchers = [...patterns].sort().map((pattern) => [pattern, wildcard(pattern)] as const);
  for (const name of [...names].sort()) {
    const found = matchers.find(([, matcher]) => matcher.test(name));
    if (found !== undefined) return `wildcard pattern '${found[0]}' ${relation} '${name}'`;
  }
  return undefined;
}

/**
 * The problems `check` finds in a Kyverno policy's spec (none when it is no mapping), each added
 * with rule `kyverno-policy`.
 */
export function specProblems(
  document: Record<string, unknown>,
  check: (spec: Record<string, unknown>, add: AddProblem) => void,
): SchemaProblem[] {
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  check(spec, problemAdder(problems));
  return problems;
}

/** What adds a problem of Kyverno's policy checks (rule `kyverno-policy`) to `problems`. */
function problemAdder(problems: SchemaProblem[]): AddProblem {
  return (path, message, part = 'value', warning) => {
    problems.push({
      path: jsonPointer(path),
      part,
      keyword: 'kyverno-policy',
      message,
      ...(warning === undefined ? {} : { apiWarning: true as const }),
    });
  };
}

/** The longest name of a Kyverno policy: it is a label's value in its reports. */
const MAX_POLICY_NAME = 63;

/** A Kyverno policy's name (`ValidatePolicyName`): at most 63 characters. */
export function policyNameProblems(metadata: unknown, add: AddProblem): void {
  if (!isPlainObject(metadata)) return;
  if (typeof metadata.name === 'string' && metadata.name.length > MAX_POLICY_NAME) {
    add(
      ['metadata', 'name'],
      `Too long: may not be more than ${MAX_POLICY_NAME} bytes (a policy's name is a label's value in its reports)`,
    );
  }
}

/**
 * A Kyverno policy's metadata (`ValidatePolicyName`, `ValidateAutogenAnnotation`): a name of at
 * most 63 characters, and no `pod-policies.kyverno.io/autogen-controllers: all`.
 */
export function policyMetadataProblems(metadata: unknown, add: AddProblem): void {
  if (!isPlainObject(metadata)) return;
  policyNameProblems(metadata, add);
  const annotations = metadata.annotations;
  const autogen = 'pod-policies.kyverno.io/autogen-controllers';
  if (isPlainObject(annotations) && annotations[autogen] === 'all') {
    add(
      ['metadata', 'annotations', autogen],
      forbiddenValue(
        "Autogen annotation does not support 'all' anymore, remove the annotation or set it to a valid value",
      ),
    );
  }
}

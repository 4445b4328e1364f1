/**
 * What the API server checks of a Role's and a ClusterRole's rules in Go (k8s.io/kubernetes
 * `pkg/apis/rbac/validation` `ValidatePolicyRule`): a rule has verbs; a rule on non-resource
 * URLs is a ClusterRole's and names no API groups, resources or resource names; a rule on
 * resources names an API group and a resource. A ClusterRole's `aggregationRule` has label
 * selectors, one at least (`ValidateClusterRole`). Each problem at its field, in the API server's
 * words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidStringList, requiredValue } from './go-field-error.js';
import { labelSelectorProblems } from './label-syntax.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** The rule problems of a built-in document of `group`/`kind` (a Role's or a ClusterRole's). */
export function policyRuleProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== RBAC_GROUP || (kind !== 'Role' && kind !== 'ClusterRole')) return [];
  const namespaced = kind === 'Role';
  const problems: SchemaProblem[] = [];
  if (!namespaced) aggregationRuleProblems(document.aggregationRule, problems);
  const rules = document.rules;
  if (!Array.isArray(rules)) return problems;
  rules.forEach((rule: unknown, i) => {
    if (!isPlainObject(rule)) return;
    const add = (field: string, keyword: string, message: string): void => {
      problems.push({ path: jsonPointer(['rules', i, field]), part: 'value', keyword, message });
    };
    // Left out, the schema's required field reports it, in these words (`go-required-field.ts`).
    if (rule.verbs !== undefined && listLength(rule.verbs) === 0) {
      add('verbs', 'required', requiredValue('verbs must contain at least one value'));
    }
    const urls = rule.nonResourceURLs;
    if (Array.isArray(urls) && urls.length > 0) {
      const shown = urls.filter((url): url is string => typeof url === 'string');
      if (namespaced) {
        add(
          'nonResourceURLs',
          'non-resource-urls',
          invalidStringList(shown, 'namespaced rules cannot apply to non-resource URLs'),
        );
      }
      if (
        listLength(rule.apiGroups) > 0 ||
        listLength(rule.resources) > 0 ||
        listLength(rule.resourceNames) > 0
      ) {
        add(
          'nonResourceURLs',
          'non-resource-urls',
          invalidStringList(
            shown,
            'rules cannot apply to both regular resources and non-resource URLs',
          ),
        );
      }
      return;
    }
    if (listLength(rule.apiGroups) === 0) {
      add(
        'apiGroups',
        'required',
        requiredValue('resource rules must supply at least one api group'),
      );
    }
    if (listLength(rule.resources) === 0) {
      add(
        'resources',
        'required',
        requiredValue('resource rules must supply at least one resource'),
      );
    }
  });
  return problems;
}

/** The length of a list field; 0 when it is absent or not a list. */
function listLength(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/** A ClusterRole's `aggregationRule`: its cluster role selectors, one at least. */
function aggregationRuleProblems(rule: unknown, problems: SchemaProblem[]): void {
  if (!isPlainObject(rule)) return;
  const selectors = rule.clusterRoleSelectors;
  const at = ['aggregationRule', 'clusterRoleSelectors'];
  if (!Array.isArray(selectors) || selectors.length === 0) {
    problems.push({
      path: jsonPointer(at),
      part: 'value',
      keyword: 'required',
      message: requiredValue(
        'at least one clusterRoleSelector required if aggregationRule is non-nil',
      ),
    });
    return;
  }
  selectors.forEach((selector: unknown, i) => {
    labelSelectorProblems(selector, (path, keyword, message) => {
      problems.push({ path: jsonPointer([...at, i, ...path]), part: 'value', keyword, message });
    });
  });
}

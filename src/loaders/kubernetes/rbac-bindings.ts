/**
 * What the API server checks of a RoleBinding's and a ClusterRoleBinding's references in Go
 * (k8s.io/kubernetes `pkg/apis/rbac/validation`: `ValidateRoleBinding`,
 * `ValidateClusterRoleBinding`, `ValidateRoleBindingSubject`), which the OpenAPI does not: the
 * role is RBAC's (a ClusterRoleBinding's a ClusterRole) and named, and each subject is a
 * ServiceAccount, a User or a Group of the right API group, with a name (a ServiceAccount's a
 * DNS-1123 subdomain), a ServiceAccount of a ClusterRoleBinding with its namespace. Each problem at its field, in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue, requiredValue, unsupportedValue } from './go-field-error.js';
import { dns1123SubdomainProblems, pathSegmentProblems } from './label-syntax.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'];

/** The reference problems of a built-in document of `group`/`kind` (none but for a binding). */
export function roleBindingProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== RBAC_GROUP || (kind !== 'RoleBinding' && kind !== 'ClusterRoleBinding')) return [];
  const namespaced = kind === 'RoleBinding';
  const problems: SchemaProblem[] = [];
  const add = (path: (string | number)[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  // A field left out is the schema's `required` finding; only a written one is checked here.
  const roleRef = isPlainObject(document.roleRef) ? document.roleRef : {};
  const apiGroup = roleRef.apiGroup;
  if (typeof apiGroup === 'string' && apiGroup !== RBAC_GROUP) {
    add(['roleRef', 'apiGroup'], 'enum', unsupportedValue(apiGroup, [RBAC_GROUP]));
  }
  const roleKinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const roleKind = roleRef.kind;
  if (typeof roleKind === 'string' && !roleKinds.includes(roleKind)) {
    add(['roleRef', 'kind'], 'enum', unsupportedValue(roleKind, roleKinds));
  }
  const name = roleRef.name;
  // Left out, it is the schema's `required`; written empty (an unset Helm value), Go's.
  if (name === '') add(['roleRef', 'name'], 'required', requiredValue());
  if (typeof name === 'string' && name !== '') {
    for (const message of pathSegmentProblems(name)) {
      add(['roleRef', 'name'], 'rbac-name', invalidValue(name, message));
    }
  }
  const subjects = Array.isArray(document.subjects) ? document.subjects : [];
  subjects.forEach((subject: unknown, i) => {
    if (!isPlainObject(subject)) return;
    subjectProblems(subject, namespaced, (path, keyword, message) =>
      add(['subjects', i, ...path], keyword, message),
    );
  });
  return problems;
}

/** `ValidateRoleBindingSubject`, after `SetDefaults_Subject` (a User's or Group's API group). */
function subjectProblems(
  subject: Record<string, unknown>,
  namespaced: boolean,
  add: (path: string[], keyword: string, message: string) => void,
): void {
  const kind = subject.kind;
  const apiGroup = subject.apiGroup ?? '';
  const name = subject.name;
  if (name === '') add(['name'], 'required', requiredValue());
  switch (kind) {
    case 'ServiceAccount':
      // `ValidateServiceAccountName`.
      if (typeof name === 'string' && name !== '') {
        for (const message of dns1123SubdomainProblems(name)) {
          add(['name'], 'dns-1123-subdomain', invalidValue(name, message));
        }
      }
      if (apiGroup !== '') add(['apiGroup'], 'enum', unsupportedValue(apiGroup, ['']));
      if (!namespaced && (subject.namespace ?? '') === '') {
        add(['namespace'], 'required', requiredValue());
      }
      return;
    case 'User':
    case 'Group':
      // Defaulted to RBAC's group when left out.
      if (apiGroup !== '' && apiGroup !== RBAC_GROUP) {
        add(['apiGroup'], 'enum', unsupportedValue(apiGroup, [RBAC_GROUP]));
      }
      return;
    default:
      if (typeof kind === 'string') add(['kind'], 'enum', unsupportedValue(kind, SUBJECT_KINDS));
  }
}

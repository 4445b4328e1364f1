/**
 * The `match` and `exclude` of a Kyverno policy (a `ClusterPolicy`'s or `Policy`'s rule, a cleanup
 * policy, a policy exception), as Kyverno checks them when the policy is written
 * (`MatchResources.Validate`, `ResourceDescription.Validate` and `UserInfo.Validate` of its
 * `api/kyverno/v1`), in Kyverno's words:
 *
 * - `any` and `all` are not both given;
 * - a filter (`any[i]`, `all[i]`, or the section itself) names its subjects as `User`, `Group` or
 *   `ServiceAccount` (a service account with its namespace), its roles as `namespace:name`, and
 *   not both `name` and `names`; a `selector` says what it selects (unless it has wildcards);
 * - in a namespaced policy (`Policy`, `CleanupPolicy`), no filter names namespaces or a
 *   cluster-scoped kind (as far as the load's definitions and the built-in kinds tell);
 * - where no user is known (a cleanup policy, an exception applied in the background), no filter
 *   names roles, cluster roles or subjects;
 * - an `exclude.any` filter is not one of `match.any`'s, which would leave nothing.
 */

import { isPlainObject, stringOrEmpty as text } from '../manifest-document.js';
import { wildcard } from './kyverno-wildcard.js';
import {
  forbiddenValue,
  invalidStructValue,
  invalidValue,
  requiredValue,
} from './go-field-error.js';

export type Path = readonly (string | number)[];

/**
 * Adds a problem at a place: of its value, or of the field itself (`key`); a `warning` is one
 * Kyverno takes the policy with (kubectl prints it as `Warning:`).
 */
export type AddProblem = (
  path: Path,
  message: string,
  part?: 'key' | 'value',
  warning?: 'warning',
) => void;

/**
 * Whether a kind is cluster-scoped, named as Kyverno names kinds (`Namespace`, `v1/Namespace`,
 * `rbac.authorization.k8s.io/v1/ClusterRole`); `undefined` when it is not known.
 */
export type ClusterScope = (kind: string) => boolean | undefined;

/** How a policy's match and exclude are checked. */
export interface MatchRules {
  /** The policy is namespaced: its filters name no namespaces and no cluster-scoped kind. */
  readonly namespaced: boolean;
  readonly isClusterScoped: ClusterScope;
  /**
   * Why no user is known where the policy applies, when none is: its filters then name no roles,
   * cluster roles or subjects.
   */
  readonly noUserInfo?: string;
}

/** The subjects' kinds Kyverno takes. */
const SUBJECT_KINDS = new Set(['User', 'Group', 'ServiceAccount']);

/** The filters of a match or exclude: its `any` and `all` items, and itself. */
export function matchFilters(section: unknown, at: Path): [Record<string, unknown>, Path][] {
  if (!isPlainObject(section)) return [];
  const filters: [Record<string, unknown>, Path][] = [];
  for (const list of ['any', 'all']) {
    const items = section[list];
    if (!Array.isArray(items)) continue;
    items.forEach((item: unknown, i) => {
      if (isPlainObject(item)) filters.push([item, [...at, list, i]]);
    });
  }
  filters.push([section, at]);
  return filters;
}

/** Reports the problems of a match or exclude (see above). */
export function matchProblems(
  section: unknown,
  at: Path,
  rules: MatchRules,
  add: AddProblem,
): void {
  if (!isPlainObject(section)) return;
  if (nonEmpty(section.any) && nonEmpty(section.all)) {
    add(at, "Can't specify any and all together", 'key');
  }
  for (const [filter, path] of matchFilters(section, at)) {
    if (rules.noUserInfo !== undefined) {
      for (const field of ['roles', 'clusterRoles', 'subjects']) {
        if (nonEmpty(filter[field])) {
          add(
            [...path, field],
            forbiddenValue(`Usage of user info is forbidden (${rules.noUserInfo})`),
            'key',
          );
        }
      }
    } else {
      subjectProblems(filter.subjects, [...path, 'subjects'], add);
      roleProblems(filter.roles, [...path, 'roles'], add);
    }
    resourceProblems(filter.resources, [...path, 'resources'], rules, add);
  }
}

/** A filter's subjects: each a `User`, `Group` or `ServiceAccount` with a name. */
function subjectProblems(subjects: unknown, at: Path, add: AddProblem): void {
  if (!Array.isArray(subjects)) return;
  subjects.forEach((subject: unknown, i) => {
    if (!isPlainObject(subject)) return;
    const kind = typeof subject.kind === 'string' ? subject.kind : '';
    if (kind === '') {
      add([...at, i, 'kind'], requiredValue(), 'key');
    } else if (!SUBJECT_KINDS.has(kind)) {
      add(
        [...at, i, 'kind'],
        invalidValue(kind, "kind must be 'User', 'Group', or 'ServiceAccount'"),
      );
    }
    if (typeof subject.name !== 'string' || subject.name === '') {
      add([...at, i, 'name'], requiredValue(), 'key');
    }
    if (
      kind === 'ServiceAccount' &&
      (typeof subject.namespace !== 'string' || subject.namespace === '')
    ) {
      add(
        [...at, i, 'namespace'],
        requiredValue('namespace is required when Kind is ServiceAccount'),
        'key',
      );
    }
  });
}

/** A filter's roles: each `namespace:name`. */
function roleProblems(roles: unknown, at: Path, add: AddProblem): void {
  if (!Array.isArray(roles)) return;
  roles.forEach((role: unknown, i) => {
    if (typeof role === 'string' && role.split(':').length !== 2) {
      add([...at, i], invalidValue(role, 'Role is expected to be in namespace:name format'));
    }
  });
}

/** A filter's resources (`ResourceDescription.Validate`). */
function resourceProblems(resources: unknown, at: Path, rules: MatchRules, add: AddProblem): void {
  if (!isPlainObject(resources)) return;
  if (typeof resources.name === 'string' && resources.name !== '' && nonEmpty(resources.names)) {
    add([...at, 'names'], 'Both name and names can not be specified together', 'key');
  }
  const selector = resources.selector;
  if (isPlainObject(selector) && !selectorHasWildcard(selector) && !selectsAnything(selector)) {
    add(
      [...at, 'selector'],
      invalidStructValue(selector, 'The requirements are not specified in selector'),
    );
  }
  if (!rules.namespaced) return;
  if (nonEmpty(resources.namespaces)) {
    add(
      [...at, 'namespaces'],
      forbiddenValue('Filtering namespaces not allowed in namespaced policies'),
      'key',
    );
  }
  if (!Array.isArray(resources.kinds)) return;
  resources.kinds.forEach((kind: unknown, i) => {
    if (typeof kind === 'string' && rules.isClusterScoped(kind) === true) {
      add(
        [...at, 'kinds', i],
        forbiddenValue(`Cluster wide resource '${kind}' not allowed in namespaced policy`),
      );
    }
  });
}

/** Whether a label selector has a requirement: a label or an expression. */
function selectsAnything(selector: Record<string, unknown>): boolean {
  const labels = selector.matchLabels;
  return (
    (isPlainObject(labels) && Object.keys(labels).length > 0) || nonEmpty(selector.matchExpressions)
  );
}

/** Whether a label selector's labels hold Kyverno's wildcards (`*`, `?`), which it takes as they are. */
function selectorHasWildcard(selector: Record<string, unknown>): boolean {
  const labels = selector.matchLabels;
  if (!isPlainObject(labels)) return false;
  return Object.entries(labels).some(
    ([key, value]) => /[*?]/.test(key) || (typeof value === 'string' && /[*?]/.test(value)),
  );
}

/**
 * Each `exclude.any` filter that is one of `match.any`'s (`ValidateMatchExcludeConflict`, when
 * neither has `all`): what is matched is excluded, and the policy applies to nothing. `what`
 * names it in the message (`Rule`, `CleanupPolicy`); `at` is where `match` and `exclude` are.
 */
export function emptySetProblems(
  match: unknown,
  exclude: unknown,
  at: Path,
  what: string,
  add: AddProblem,
): void {
  if (!isPlainObject(match) || !isPlainObject(exclude)) return;
  if (nonEmpty(match.all) || nonEmpty(exclude.all)) return;
  if (!nonEmpty(match.any) || !nonEmpty(exclude.any)) return;
  const matched = new Map<string, number>();
  (match.any as unknown[]).forEach((filter, i) => {
    const key = canonical(filter);
    if (!matched.has(key)) matched.set(key, i);
  });
  (exclude.any as unknown[]).forEach((filter, j) => {
    const i = matched.get(canonical(filter));
    if (i === undefined) return;
    add(
      [...at, 'exclude', 'any', j],
      forbiddenValue(
        `${what} is matching an empty set: it excludes match.any[${i}], which it matches`,
      ),
      'key',
    );
  });
}

/**
 * Whether a rule's `exclude` excludes all its `match` matches, read from their own fields (not
 * `any` / `all`), as Kyverno reads them (`ValidateMatchExcludeConflict` past its `any` case):
 * each of roles, cluster roles, subjects, names, namespaces, kinds, selectors and annotations the
 * exclude names covers what the match names there. An exclude of `any` filters beside a match of
 * its own fields is read so too, and Kyverno refuses it.
 */
export function excludesAllMatched(
  match: Record<string, unknown>,
  exclude: Record<string, unknown>,
): boolean {
  if (nonEmpty(match.all) || nonEmpty(exclude.all)) return false;
  if (nonEmpty(match.any) && nonEmpty(exclude.any)) return false;
  if (!Object.values(exclude).some((value) => value != null)) return false;
  const strings = (value: unknown): string[] =>
    Array.isArray(value)
      ? value.map((item) => (typeof item === 'string' ? item : canonical(item)))
      : [];
  const covers = (excluded: unknown, matched: unknown): boolean => {
    const given = strings(excluded);
    if (given.length === 0) return true;
    const wanted = strings(matched);
    return wanted.length > 0 && wanted.every((item) => given.includes(item));
  };
  for (const field of ['roles', 'clusterRoles', 'subjects']) {
    if (!covers(exclude[field], match[field])) return false;
  }
  const mr = isPlainObject(match.resources) ? match.resources : {};
  const er = isPlainObject(exclude.resources) ? exclude.resources : {};
  if (text(er.name) !== '' && !wildcard(text(er.name)).test(text(mr.name))) return false;
  const excludedNames = strings(er.names);
  if (excludedNames.length > 0) {
    const matchedNames = strings(mr.names);
    return matchedNames.some((name) => excludedNames.some((n) => wildcard(n).test(name)));
  }
  if (!covers(er.namespaces, mr.namespaces) || !covers(er.kinds, mr.kinds)) return false;
  for (const field of ['selector', 'namespaceSelector']) {
    const ms = mr[field];
    const es = er[field];
    if ((ms == null) !== (es == null)) return false;
    if (!isPlainObject(ms) || !isPlainObject(es)) continue;
    if (!covers(es.matchExpressions, ms.matchExpressions)) return false;
    const el = isPlainObject(es.matchLabels) ? es.matchLabels : {};
    const ml = isPlainObject(ms.matchLabels) ? ms.matchLabels : {};
    if (Object.keys(el).length > 0) {
      const labels = Object.entries(ml);
      if (labels.length === 0 || labels.some(([label, value]) => el[label] !== value)) return false;
    }
  }
  if ((mr.annotations == null) !== (er.annotations == null)) return false;
  return mr.annotations == null || canonical(mr.annotations) === canonical(er.annotations);
}

/** A value as JSON with its keys sorted, to compare two values whatever their keys' order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    isPlainObject(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** A version as Kyverno tells it from a kind's other parts (`v1`, `v2beta1`, `*`). */
const VERSION = /^(v\d+((alpha|beta)\d+)?|\*)$/;

/**
 * The subresource a kind selector names (`Pod/exec`, `*\/status`, `apps/v1/Deployment/scale`,
 * `Deployment.scale`), `*` for all of them (`Pod/*`, `*\/*`), or `''` for none: Kyverno's
 * `ParseKindSelector`.
 */
export function kindSubresource(selector: string): string {
  const slashed = selector.split('/');
  const parts = [...slashed.slice(0, -1), ...(slashed.at(-1) as string).split('.')];
  const [first, second] = parts as [string, string];
  switch (parts.length) {
    case 2:
      if (first === '*' && second === '*') return '*';
      if (first === '*' && second.toLowerCase() === second) return second;
      return VERSION.test(first) ? '' : second;
    case 3:
      return VERSION.test(first) ? (parts[2] as string) : '';
    case 4:
      return parts[3] as string;
    default:
      return '';
  }
}

/** Whether a value is a list with items. */
export function nonEmpty(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

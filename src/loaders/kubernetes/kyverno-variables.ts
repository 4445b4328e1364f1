/**
 * The variables of a Kyverno `ClusterPolicy` or `Policy` (`{{ request.object.metadata.name }}`),
 * checked as Kyverno checks them when the policy is written (its admission webhook, and
 * `kyverno apply` / `kyverno test`; `pkg/validation/policy`), so that a policy Kyverno would refuse
 * is reported at the line of the variable:
 *
 * - each variable of a rule, in any string or key (nested ones innermost first, as Kyverno
 *   substitutes them), is JMESPath in Kyverno's dialect (`kyverno-jmespath.ts`), and names what
 *   Kyverno knows: `request.*`, `element`, `elementIndex`, `images`, `@`, a function call, or an
 *   entry of the rule's `context` (or of its `foreach`'s); `target.*` in a rule that mutates
 *   existing resources, but not in the rule's context and preconditions nor in a target's own
 *   apiVersion, kind, name, namespace and selector (read before the target is found);
 *   `element` and `elementIndex` only below a `foreach`;
 * - a rule's `match` and `exclude`, a `verifyImages` image reference and the path of a
 *   `patchesJson6902` operation hold none;
 * - a policy applied in the background (`spec.background`, true unless false), none of whose rules
 *   mutates existing resources, names no user (`request.userInfo`, `request.roles`,
 *   `request.clusterRoles`, `serviceAccountName`, `serviceAccountNamespace`) and matches none by
 *   roles, cluster roles or subjects: existing resources are reviewed with no request.
 *
 * A function Kyverno does not have is reported too (each request fails on it). What Kyverno
 * checks only when a request comes (a function's arguments, what a query finds) is not checked.
 * An escaped `\{{` is text. A rule's other fields Kyverno checks (its context entries, its
 * conditions on the operation): `kyverno-rule-fields.ts`.
 */

import { parse as parseYaml } from 'yaml';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { invalidValue } from './go-field-error.js';
import { kyvernoJmespathError } from './kyverno-jmespath-loader.js';
import { ruleFieldProblems, type Report } from './kyverno-rule-fields.js';
import { wildcard, type WildcardPattern } from './kyverno-wildcard.js';

const GROUP = 'kyverno.io';
const KINDS = new Set(['ClusterPolicy', 'Policy']);
/** Kyverno's cleanup policies, whose `conditions` write variables. */
const CLEANUP_KINDS = new Set(['CleanupPolicy', 'ClusterCleanupPolicy']);

/** Whether a document of `group`/`kind` is a Kyverno policy of rules (`ClusterPolicy`, `Policy`). */
export function holdsKyvernoRules(group: string, kind: string): boolean {
  return group === GROUP && KINDS.has(kind);
}

/** Whether a document of `group`/`kind` is a Kyverno policy that writes variables. */
export function holdsKyvernoVariables(group: string, kind: string): boolean {
  return group === GROUP && (KINDS.has(kind) || CLEANUP_KINDS.has(kind));
}

/**
 * What a cleanup policy's conditions may name (its validation's `allowedVariables`): any name,
 * so only their JMESPath is checked.
 */
const CLEANUP_KNOWN = /([a-z_0-9]+)|(target\.|images\.|([a-z_0-9]\()[^{}])/;

/** A variable as Kyverno finds it: `{{...}}` at the start of a string or after any but `\`. */
const VARIABLE = /(^|[^\\])(\{\{(?:\{[^{}]*\}|[^{}])*\}\})/g;
/** What makes a section hold a variable, escaped or not (`objectHasVariables`). */
const ANY_VARIABLE = /\{\{[^{}]*\}\}/;

/**
 * The variables Kyverno knows without a context entry (`allowedVariables*` of its validation):
 * matched anywhere in the query, as Kyverno matches them. Kyverno's `[a-z_0-9]+\(` (a function's
 * result) is written with one character before the `(`: it matches where that does, and does not
 * scan a long name again from each of its letters (quadratic in JavaScript, linear in Go's RE2).
 */
const KNOWN = {
  admission:
    /request|serviceAccountName|serviceAccountNamespace|element|elementIndex|@|images|image|([a-z_0-9]\()[^{}]/,
  background: /request\.|element|elementIndex|@|images|images\.|image\.|([a-z_0-9]\()[^{}]/,
  admissionTarget:
    /request\.|serviceAccountName|serviceAccountNamespace|element|elementIndex|@|images|images\.|image\.|target\.|([a-z_0-9]\()[^{}]/,
  backgroundTarget:
    /request\.|element|elementIndex|@|images|images\.|image\.|target\.|([a-z_0-9]\()[^{}]/,
};

/** The variables of a user, which a policy applied in the background cannot know. */
const USER_VARIABLES = [
  /[^.](serviceAccountName)\b/,
  /[^.](serviceAccountNamespace)\b/,
  /[^.](request.userInfo)\b/,
  /[^.](request.roles)\b/,
  /[^.](request.clusterRoles)\b/,
];

/** How many times a string's variables are substituted (nested ones, innermost first). */
const MAX_ROUNDS = 16;
/** How deep a policy is walked. */
const MAX_DEPTH = 64;

type Path = readonly (string | number)[];

/** The problems of a Kyverno policy's variables (see above). */
export function kyvernoVariableProblems(document: Record<string, unknown>): SchemaProblem[] {
  if (typeof document.kind === 'string' && CLEANUP_KINDS.has(document.kind)) {
    return cleanupConditionProblems(document);
  }
  const spec = document.spec;
  if (!isPlainObject(spec) || !Array.isArray(spec.rules)) return [];
  const rules = spec.rules;
  const background = spec.background !== false;
  const mutatesExisting = rules.some(
    (rule: unknown) =>
      isPlainObject(rule) &&
      isPlainObject(rule.mutate) &&
      Array.isArray(rule.mutate.targets) &&
      rule.mutate.targets.length > 0,
  );
  const problems: SchemaProblem[] = [];
  const report = reporter(problems);

  if (background && !mutatesExisting) {
    // Anywhere in the policy, as Kyverno scans all of it.
    walkStrings(document, [], (text, path, part) => {
      for (const [, , variable] of text.matchAll(VARIABLE)) {
        const user = USER_VARIABLES.find((pattern) => pattern.test(variable as string));
        if (user === undefined) continue;
        const name = (variable as string).match(user)?.[1] as string;
        report(
          path,
          part,
          variable,
          `Kyverno refuses ${name} in a policy applied in the background (spec.background, true unless false): existing resources are reviewed with no request and no user; set spec.background: false`,
        );
      }
    });
  }

  rules.forEach((rule: unknown, i) => {
    if (!isPlainObject(rule)) return;
    const at: Path = ['spec', 'rules', i];
    for (const section of ['match', 'exclude']) {
      const filter = rule[section];
      walkStrings(filter, [...at, section], (text, path, part) => {
        const variable = text.match(ANY_VARIABLE)?.[0];
        if (variable !== undefined) {
          report(
            path,
            part,
            variable,
            `Kyverno refuses variables in a rule's ${section} (it chooses the requests a policy sees before any variable is known): write the value itself`,
          );
        }
      });
      if (background && !mutatesExisting) userFilterProblems(filter, [...at, section], report);
    }
    ruleFieldProblems(rule, at, report);
    imageReferenceProblems(rule.verifyImages, [...at, 'verifyImages'], report);
    if (isPlainObject(rule.mutate)) {
      jsonPatchPathProblems(
        rule.mutate.patchesJson6902,
        [...at, 'mutate', 'patchesJson6902'],
        report,
      );
    }

    const targets = isPlainObject(rule.mutate) && Array.isArray(rule.mutate.targets);
    const known = background
      ? targets
        ? KNOWN.backgroundTarget
        : KNOWN.background
      : targets
        ? KNOWN.admissionTarget
        : KNOWN.admission;
    const declared = contextPatterns(rule);
    walkStrings(
      rule,
      at,
      (text, path, part) => {
        const within = path.slice(at.length);
        // Kyverno's `element` is what a foreach's list holds: known below a foreach only.
        const inForeach = within.includes('foreach');
        // A mutation target's own apiVersion, kind, name, namespace and selector choose what
        // `target` is, and the rule's context and preconditions are read before: it is not
        // known there.
        const beforeTarget: TargetUnknown | undefined = !targets
          ? undefined
          : within[0] === 'mutate' &&
              within[1] === 'targets' &&
              within.length > 3 &&
              within[3] !== 'context' &&
              within[3] !== 'preconditions'
            ? 'spec'
            : within[0] === 'context' || within[0] === 'preconditions'
              ? 'rule'
              : undefined;
        const here =
          beforeTarget !== undefined ? (background ? KNOWN.background : KNOWN.admission) : known;
        eachVariable(text, (variable) => {
          const detail = variableError(variable, here, declared, inForeach, beforeTarget);
          if (detail !== undefined) report(path, part, variable, detail);
        });
      },
      skippedInRule,
    );
  });
  return problems;
}

/**
 * The variables of a cleanup policy's `conditions`, as Kyverno checks them when it is written
 * (`pkg/validation/cleanuppolicy`): their JMESPath only, as any name is taken there.
 */
function cleanupConditionProblems(document: Record<string, unknown>): SchemaProblem[] {
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  const report = reporter(problems);
  walkStrings(spec.conditions, ['spec', 'conditions'], (text, path, part) => {
    eachVariable(text, (variable) => {
      const detail = variableError(variable, CLEANUP_KNOWN, [], true);
      if (detail !== undefined) report(path, part, variable, detail);
    });
  });
  return problems;
}

/**
 * What adds a problem to `problems`: of a variable (said as an invalid value) or of a field, once
 * per place and variable.
 */
function reporter(problems: SchemaProblem[]): Report {
  const reported = new Set<string>();
  return (path, part, variable, detail) => {
    const pointer = jsonPointer(path);
    const key = `${pointer}\0${variable ?? ''}`;
    if (reported.has(key)) return;
    reported.add(key);
    const message = variable === undefined ? detail : invalidValue(variable, detail);
    problems.push({ path: pointer, part, keyword: 'kyverno-variable', message });
  };
}

/**
 * Whether a place of a rule is left out of its variables' check: its `match` and `exclude`
 * (which hold none), and an attestation's conditions (whose variables come from the attestation
 * itself, as Kyverno leaves them).
 */
function skippedInRule(path: Path): boolean {
  const [, , , section] = path;
  if (path.length === 4 && (section === 'match' || section === 'exclude')) return true;
  return (
    path.length === 8 &&
    section === 'verifyImages' &&
    path[5] === 'attestations' &&
    path[7] === 'conditions'
  );
}

/**
 * Where `target` is not known in a rule that mutates existing resources: a target's own
 * apiVersion, kind, name, namespace or selector (`spec`), or the rule's context and
 * preconditions (`rule`).
 */
type TargetUnknown = 'spec' | 'rule';

/**
 * Why Kyverno refuses a variable (`{{ ... }}`, as written), or `undefined`: its query does not
 * parse, names nothing it knows (`target` where the target is not found yet), or names a
 * foreach's element outside one.
 */
function variableError(
  variable: string,
  known: RegExp,
  declared: readonly Declared[],
  inForeach: boolean,
  beforeTarget?: TargetUnknown,
): string | undefined {
  let query = variable.replaceAll('{{', '').replaceAll('}}', '').trim();
  // `{{- ...}}` substitutes once, without the nested variables of what it finds.
  if (query.startsWith('-')) query = query.slice(1).trim();
  if (query === '@') return undefined;
  if (query === '') return 'Kyverno refuses an empty variable';
  const syntax = kyvernoJmespathError(query);
  if (syntax !== undefined) return syntax;
  const name = query.replaceAll('"', '');
  if (known.test(name) || declared.some(({ pattern }) => pattern.test(name))) {
    return inForeach || !query.startsWith('element')
      ? undefined
      : `Kyverno refuses ${query.startsWith('elementIndex') ? 'elementIndex' : 'element'} outside a foreach (it is what the foreach's list holds, and where)`;
  }
  if (beforeTarget !== undefined && /^target\b/.test(name)) {
    return beforeTarget === 'spec'
      ? "Kyverno refuses target in a mutation target's own apiVersion, kind, name, namespace or selector: they choose what target is"
      : "Kyverno refuses target in a rule's context and preconditions: they are read before the targets are found; use the target's own context and preconditions (mutate.targets[*].context, .preconditions)";
  }
  const entries = [...new Set(declared.map(({ entry }) => entry))];
  return `Kyverno refuses the policy: ${name} is no variable it knows (request, element, elementIndex, images, @, a function's result, ${entries.length === 0 ? "or an entry of the rule's context, which has none" : `or the rule's context: ${entries.join(', ')}`})`;
}

/**
 * Each variable of a string, as Kyverno substitutes them: all those found, then again in what
 * their substitution made (a variable inside another, `{{ f('{{ request.name }}') }}`), until
 * none is left; the whole string being one variable, or a `{{- }}`, ends it.
 */
function eachVariable(text: string, visit: (variable: string) => void): void {
  let value = text;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = [...value.matchAll(VARIABLE)];
    if (found.length === 0) return;
    const original = value;
    let shallow = false;
    for (const [whole, prefix, variable] of found) {
      visit(variable as string);
      if (original === variable) return;
      shallow = /^\{\{\s*-/.test(variable as string);
      // Kyverno's check finds nothing for a variable, written `null` in its place.
      value = value.replace(whole, () => `${prefix as string}null`);
    }
    if (shallow) return;
  }
}

/** A context entry's name, and the variables it declares (`name*`, or a config map's fields). */
interface Declared {
  readonly entry: string;
  readonly pattern: WildcardPattern;
}

/**
 * The variables a rule's context entries declare, with those of its `foreach` (at any depth)
 * and its mutation targets (`buildContext`): any query that starts with the name of an API call,
 * global reference, image registry or variable entry; a config map's `data` and `metadata`.
 * Attestations' names are declared too.
 */
function contextPatterns(rule: Record<string, unknown>): Declared[] {
  const declared: Declared[] = [];
  const addEntries = (entries: unknown): void => {
    if (!Array.isArray(entries)) return;
    for (const entry of entries) {
      if (!isPlainObject(entry) || typeof entry.name !== 'string') continue;
      const name = entry.name;
      if (
        ['apiCall', 'globalReference', 'imageRegistry', 'variable'].some((k) => entry[k] != null)
      ) {
        declared.push({ entry: name, pattern: wildcard(`${name}*`) });
      }
      if (entry.configMap != null) {
        for (const field of ['data', 'metadata']) {
          declared.push({ entry: name, pattern: wildcard(`${name}.${field}`) });
          declared.push({ entry: name, pattern: wildcard(`${name}.${field}.*`) });
        }
      }
    }
  };
  addEntries(rule.context);
  const addForeach = (list: unknown, depth: number): void => {
    if (!Array.isArray(list) || depth > 8) return;
    for (const item of list) {
      if (!isPlainObject(item)) continue;
      addEntries(item.context);
      addForeach(item.foreach, depth + 1);
    }
  };
  for (const section of ['validate', 'mutate', 'generate']) {
    const value = rule[section];
    if (isPlainObject(value)) addForeach(value.foreach, 0);
  }
  if (isPlainObject(rule.mutate) && Array.isArray(rule.mutate.targets)) {
    for (const target of rule.mutate.targets) if (isPlainObject(target)) addEntries(target.context);
  }
  if (Array.isArray(rule.verifyImages)) {
    for (const verify of rule.verifyImages) {
      if (!isPlainObject(verify) || !Array.isArray(verify.attestations)) continue;
      for (const attestation of verify.attestations) {
        if (isPlainObject(attestation) && typeof attestation.name === 'string') {
          declared.push({ entry: attestation.name, pattern: wildcard(`${attestation.name}*`) });
        }
      }
    }
  }
  return declared;
}

/**
 * A match or exclude of a policy applied in the background that filters by the user's roles,
 * cluster roles or subjects (itself, or any of its `any` / `all` filters): Kyverno refuses it.
 */
function userFilterProblems(filter: unknown, at: Path, report: Report): void {
  if (!isPlainObject(filter)) return;
  const filters: [unknown, Path][] = [[filter, at]];
  for (const list of ['any', 'all']) {
    const items = filter[list];
    if (Array.isArray(items)) items.forEach((item, i) => filters.push([item, [...at, list, i]]));
  }
  for (const [value, path] of filters) {
    if (!isPlainObject(value)) continue;
    for (const field of ['roles', 'clusterRoles', 'subjects']) {
      const given = value[field];
      if (!Array.isArray(given) || given.length === 0) continue;
      report(
        [...path, field],
        'key',
        undefined,
        `Kyverno refuses a policy applied in the background (spec.background, true unless false) that chooses requests by ${field}: existing resources are reviewed with no user; set spec.background: false`,
      );
    }
  }
}

/** The image references of a rule's image verifications, which hold no variable. */
function imageReferenceProblems(verifyImages: unknown, at: Path, report: Report): void {
  if (!Array.isArray(verifyImages)) return;
  verifyImages.forEach((verify: unknown, i) => {
    if (!isPlainObject(verify)) return;
    const references: [unknown, Path][] = [[verify.image, [...at, i, 'image']]];
    if (Array.isArray(verify.imageReferences)) {
      verify.imageReferences.forEach((reference: unknown, j) =>
        references.push([reference, [...at, i, 'imageReferences', j]]),
      );
    }
    for (const [reference, path] of references) {
      if (typeof reference !== 'string') continue;
      for (const [, , variable] of reference.matchAll(VARIABLE)) {
        report(
          path,
          'value',
          variable,
          'Kyverno refuses variables in an image reference: it chooses the images to verify before any variable is known',
        );
      }
    }
  });
}

/** The paths of a `patchesJson6902`'s operations, which hold no variable. */
function jsonPatchPathProblems(patch: unknown, at: Path, report: Report): void {
  if (typeof patch !== 'string' || !patch.includes('{{')) return;
  let operations: unknown;
  try {
    operations = parseYaml(patch, { maxAliasCount: 0, logLevel: 'silent' });
  } catch {
    return;
  }
  if (!Array.isArray(operations)) return;
  for (const operation of operations) {
    if (!isPlainObject(operation) || typeof operation.path !== 'string') continue;
    for (const [, , variable] of operation.path.matchAll(VARIABLE)) {
      report(
        at,
        'value',
        variable,
        'Kyverno refuses variables in the path of a JSON patch operation: write the path itself',
      );
    }
  }
}

/**
 * Calls `visit` with each string of `value` (`part: 'value'`) and each key (`part: 'key'`), at
 * its path, but under the places `skip` leaves out.
 */
function walkStrings(
  value: unknown,
  path: Path,
  visit: (text: string, path: Path, part: 'key' | 'value') => void,
  skip: (path: Path) => boolean = () => false,
  depth = 0,
): void {
  if (depth > MAX_DEPTH || skip(path)) return;
  if (typeof value === 'string') {
    if (value.includes('{{')) visit(value, path, 'value');
  } else if (Array.isArray(value)) {
    value.forEach((item: unknown, i) => walkStrings(item, [...path, i], visit, skip, depth + 1));
  } else if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const childPath = [...path, key];
      if (key.includes('{{') && !skip(childPath)) visit(key, childPath, 'key');
      walkStrings(child, childPath, visit, skip, depth + 1);
    }
  }
}

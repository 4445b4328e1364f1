/**
 * Policy tests of a policy repository, met while walking it: Gatekeeper's (`gator verify`, a
 * `Suite` of `test.gatekeeper.sh` in a `suite.yaml`) and Kyverno's (`kyverno test`, a `Test` of
 * `cli.kyverno.io` in a `kyverno-test.yaml`, as kyverno's CLI finds them). Each names policies,
 * and objects the policy reviews one at a time: a gator test's constraint and its cases' objects
 * (and the inventory beside them), a Kyverno test's resources (and the cluster's, the
 * parameters', the expected patched and generated ones). Reviewed on their own, those objects are
 * no world together: five cases' Pods named `nginx-disallowed` are no duplicates.
 */

import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { UnrenderedSource } from './unrendered-source.js';
import { isRecord } from '../engine/resource/plain-data.js';

/** The names of the policy tests a walked directory may hold (`suite.yaml`, `kyverno-test.yaml`). */
export const POLICY_TEST_FILE = /^(?:suite|kyverno-test)\.ya?ml$/i;

/** The tool that runs a policy test. */
export type PolicyTestTool = 'gator' | 'kyverno';

/** What the walk takes of a policy test: the files it names, by their absolute paths. */
export interface PolicyTest {
  readonly tool: PolicyTestTool;
  /**
   * Files of the policies it tests (a gator test's template, a Kyverno test's policies): read as
   * any other file (a walk adds one outside the paths it was given, as the test reads it).
   */
  readonly policies: readonly string[];
  /** Files checked whole, each on its own: a gator test's constraint, a Kyverno test's exceptions. */
  readonly wholes: readonly string[];
  /** Files of objects a policy reviews as written, each on its own. */
  readonly cases: readonly string[];
  /** Files that hold no objects to check, or none meant to pass, with what the test does with them. */
  readonly aside: readonly { readonly file: string; readonly operation: string }[];
}

/** How each tool's test file is known, and what it runs. */
const TOOLS: Readonly<Record<PolicyTestTool, { group: string; kind: string; what: string }>> = {
  gator: { group: 'test.gatekeeper.sh', kind: 'Suite', what: 'a Gatekeeper policy test' },
  kyverno: { group: 'cli.kyverno.io', kind: 'Test', what: 'a Kyverno policy test' },
};

/**
 * The files a policy test names, or `undefined` when the text is none (another tool's
 * `suite.yaml`, or YAML that does not parse: then it is read as a manifest, and its findings say
 * what is wrong with it). A Kyverno test written before its `apiVersion` and `kind` (only
 * `policies` and `resources`) is one too.
 */
export function readPolicyTest(text: string, absolute: string): PolicyTest | undefined {
  const dir = path.dirname(absolute);
  const at = (name: unknown): string[] =>
    typeof name === 'string' && name !== '' && !name.includes('\n') && !isUrl(name)
      ? [path.resolve(dir, name)]
      : [];
  const all = (names: unknown): string[] => (Array.isArray(names) ? names.flatMap(at) : at(names));
  const policies: string[] = [];
  const wholes: string[] = [];
  const cases: string[] = [];
  const aside: { file: string; operation: string }[] = [];
  const setAside = (names: unknown, operation: string): void => {
    for (const file of all(names)) aside.push({ file, operation });
  };
  let tool: PolicyTestTool | undefined;
  try {
    for (const document of parseAllDocuments(text, { uniqueKeys: false, logLevel: 'error' })) {
      if (document.errors.length > 0) return undefined;
      const value: unknown = document.toJS({ maxAliasCount: 100 });
      if (!isRecord(value)) continue;
      const which = toolOf(value, path.basename(absolute));
      if (which === undefined) continue;
      tool ??= which;
      if (which === 'gator') {
        for (const test of recordsOf(value.tests)) {
          policies.push(...at(test.template));
          if (test.invalid === true) {
            setAside(
              test.constraint,
              'tests as a constraint its template refuses (invalid: true): invalid on purpose',
            );
          } else {
            wholes.push(...at(test.constraint));
          }
          for (const testCase of recordsOf(test.cases)) {
            cases.push(...at(testCase.object), ...all(testCase.inventory));
          }
        }
        continue;
      }
      policies.push(...all(value.policies));
      for (const key of ['resources', 'targetResources', 'clusterResources', 'paramResources']) {
        cases.push(...all(value[key]));
      }
      wholes.push(...all(value.exceptions));
      for (const result of recordsOf(value.results)) {
        for (const key of ['patchedResources', 'generatedResource', 'cloneSourceResource']) {
          cases.push(...all(result[key]));
        }
      }
      setAside(value.variables, 'reads its variables from');
      setAside(value.userinfo, 'reads its user from');
      setAside(value.context, 'reads its context from');
      for (const key of ['jsonPayload', 'jsonPayloads', 'httpPayloads', 'envoyPayloads']) {
        setAside(value[key], 'reviews as a payload');
      }
    }
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return undefined;
  }
  return tool === undefined
    ? undefined
    : { tool, policies: [...new Set(policies)], wholes, cases, aside };
}

/** Which tool's test a document of a file of this name is, if it is one. */
function toolOf(value: Record<string, unknown>, name: string): PolicyTestTool | undefined {
  const apiVersion = value.apiVersion;
  for (const tool of ['gator', 'kyverno'] as const) {
    const { group, kind } = TOOLS[tool];
    if (
      value.kind === kind &&
      typeof apiVersion === 'string' &&
      apiVersion.startsWith(`${group}/`)
    ) {
      return tool;
    }
  }
  // kyverno's CLI reads a kyverno-test.yaml of its older shape too: no apiVersion or kind.
  const kyvernoFile = /^kyverno-test\.ya?ml$/i.test(name);
  return kyvernoFile && value.kind === undefined && Array.isArray(value.policies)
    ? 'kyverno'
    : undefined;
}

/** The set-aside entry of a policy test's file (as shown). */
export function policyTest(file: string, tool: PolicyTestTool): UnrenderedSource {
  const dir = path.dirname(file);
  const reads =
    tool === 'gator'
      ? 'its template and constraints are read, the objects its cases review are checked each on its own; run it with gator verify'
      : 'its policies are read, the resources it applies them to are checked each on its own; run it with kyverno test';
  return {
    path: file,
    kind: 'policy-test',
    file,
    message: `${TOOLS[tool].what}, not a resource: ${reads} ${dir}`,
  };
}

function isUrl(name: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(name);
}

function recordsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

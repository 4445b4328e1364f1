/**
 * Gatekeeper's policy tests (`gator verify`): a `Suite` of `test.gatekeeper.sh` names a
 * ConstraintTemplate, a constraint of it and cases, each the object one review of the policy
 * sees (and objects already in the cluster, its inventory). gator reviews each case's object on
 * its own, so the objects of a policy library's cases are no world together: five Pods named
 * `nginx-disallowed`, one per case, are no duplicates; nor are two tests' constraints of one name,
 * each added to a client of its own. A suite is found by its name,
 * `suite.yaml`, as Gatekeeper's library and docs name them.
 */

import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { UnrenderedSource } from './unrendered-sources.js';

/** The name a walked directory's gator suite has (`suite.yaml`, `suite.yml`). */
export const GATOR_SUITE_FILE = /^suite\.ya?ml$/i;

const SUITE_GROUP = 'test.gatekeeper.sh';
const SUITE_KIND = 'Suite';

/** What the walk takes of a gator suite: the files it names, by their absolute paths. */
export interface GatorSuite {
  /** The constraints of its tests (but those expected to be refused). */
  readonly constraints: readonly string[];
  /** The objects its cases review and their inventories. */
  readonly reviewed: readonly string[];
  /** The constraints of its tests that expect their template to refuse them (`invalid: true`). */
  readonly refusedConstraints: readonly string[];
}

/**
 * The files a gator suite names, or `undefined` when the text is no suite (another tool's
 * `suite.yaml`, or YAML that does not parse: then it is read as a manifest, and its findings say
 * what is wrong with it).
 */
export function readGatorSuite(text: string, absolute: string): GatorSuite | undefined {
  const dir = path.dirname(absolute);
  const constraints: string[] = [];
  const reviewed: string[] = [];
  const refusedConstraints: string[] = [];
  let suite = false;
  try {
    for (const document of parseAllDocuments(text, { uniqueKeys: false })) {
      if (document.errors.length > 0) return undefined;
      const value: unknown = document.toJS({ maxAliasCount: 100 });
      if (!isRecord(value)) continue;
      const apiVersion = value.apiVersion;
      if (
        value.kind !== SUITE_KIND ||
        typeof apiVersion !== 'string' ||
        !apiVersion.startsWith(`${SUITE_GROUP}/`)
      ) {
        continue;
      }
      suite = true;
      for (const test of recordsOf(value.tests)) {
        if (isFileName(test.constraint)) {
          const constraint = path.resolve(dir, test.constraint);
          (test.invalid === true ? refusedConstraints : constraints).push(constraint);
        }
        for (const testCase of recordsOf(test.cases)) {
          const inventory: unknown[] = Array.isArray(testCase.inventory) ? testCase.inventory : [];
          for (const name of [testCase.object, ...inventory]) {
            if (isFileName(name)) reviewed.push(path.resolve(dir, name));
          }
        }
      }
    }
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return undefined;
  }
  return suite ? { constraints, reviewed, refusedConstraints } : undefined;
}

/** The set-aside entry of a gator suite's file (as shown). */
export function gatorSuite(file: string): UnrenderedSource {
  return {
    path: file,
    kind: 'gator-suite',
    file,
    message:
      `a Gatekeeper policy test, not a resource: its template and constraints are read, the ` +
      `objects its cases review are checked each on its own; run it with gator verify ${path.dirname(file)}`,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function isFileName(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !value.includes('\n');
}

/**
 * What a walk of manifest trees found, once its reads are over: the files read as manifests,
 * sorted by the path shown but for a chainsaw test's (in the order it applies them), each with
 * the test that applies it; and, set aside beside the charts, kustomizations and tests the walk
 * met, the files a kustomization uses, a test matches or merges, the JSON that is no manifest
 * and the policy tests, unless given by name.
 */

import * as path from 'node:path';
import { compareStrings } from '../engine/compare-strings.js';
import type { Finding } from './finding.js';
import type { FoundFile } from './manifest-file-system.js';
import type { AppliedBy } from './applied-by.js';
import { policyTest, type PolicyTestTool } from './policy-tests.js';
import { jsonFile, kustomizeInput, testAssertion } from './unrendered-sources.js';
import { isConventionalStep } from './chainsaw-tests.js';
import type { UnrenderedSource } from './unrendered-source.js';
import type { ManifestWalkRecord } from './manifest-walk-record.js';

/** What the walk met and its reads made of it. */
export interface WalkParts {
  readonly record: ManifestWalkRecord;
  /** The kustomizations met (`walked-kustomizations.ts`): the one that uses a file, if any. */
  readonly kustomizations: {
    inputOf(real: string): { readonly by: string; readonly commented: boolean } | undefined;
  };
  /** The tests met (`walked-tests.ts`): what they make of the files they name. */
  readonly tests: {
    testPartial(real: string): { by: { test: string; operation: string } | undefined } | undefined;
    conventionalTests(): Map<string, AppliedBy>;
    conventionalStep(file: FoundFile, tests: ReadonlyMap<string, AppliedBy>): AppliedBy | undefined;
  };
  /** Real path of a file a chainsaw test applies -> the test, or `null` when several do. */
  readonly appliedByTests: ReadonlyMap<string, AppliedBy | null>;
  /** Real paths of the walked JSON files that are no manifests. */
  readonly notManifests: ReadonlySet<string>;
  /** Real path of a walked policy test -> its tool. */
  readonly policyTests: ReadonlyMap<string, PolicyTestTool>;
  /** Real path of a file a policy test uses on its own -> the test (as shown), and how. */
  readonly policyTestUses: ReadonlyMap<
    string,
    { readonly test: string; readonly use: 'whole' | 'case' }
  >;
  /** Real path of a file a chainsaw test applies -> its place among the tests' operations. */
  readonly applyOrder: ReadonlyMap<string, number>;
}

/**
 * The files, sorted by the path shown, but for those a kustomization uses or an end-to-end test
 * matches or merges (set aside with the charts, kustomizations and tests, unless given by
 * name), with the place among the tests' operations of those a chainsaw test applies (for
 * `inApplyOrder`); the walk's findings; what it set aside, sorted by path.
 */
export function walkResult(parts: WalkParts): {
  readonly files: readonly FoundFile[];
  readonly applyOrder: ReadonlyMap<FoundFile, number>;
  readonly findings: readonly Finding[];
  readonly unrendered: readonly UnrenderedSource[];
} {
  const { record, kustomizations, tests, appliedByTests, notManifests } = parts;
  const { policyTests, policyTestUses } = parts;
  const files: FoundFile[] = [];
  const unrendered = [...record.unrendered];
  const conventionalTests = tests.conventionalTests();
  const applyOrder = new Map<FoundFile, number>();
  for (const [real, file] of record.files) {
    const named = record.named.has(real);
    const by = named ? undefined : kustomizations.inputOf(real);
    const test = named || appliedByTests.has(real) ? undefined : tests.testPartial(real);
    if (by !== undefined) unrendered.push(kustomizeInput(file.display, by.by, by.commented));
    else if (test !== undefined) unrendered.push(testAssertion(file.display, test.by));
    else if (!named && notManifests.has(real)) unrendered.push(jsonFile(file.display));
    else if (!named && policyTests.has(real)) {
      unrendered.push(policyTest(file.display, policyTests.get(real) as PolicyTestTool));
    } else {
      // A file two chainsaw tests apply (`null`) is no test's, whatever its name.
      const byChainsaw = appliedByTests.get(real);
      const tested = policyTestUses.get(real);
      const appliedBy =
        byChainsaw !== undefined
          ? (byChainsaw ?? undefined)
          : tested !== undefined
            ? {
                test: tested.test,
                namespace: undefined,
                templates: false,
                policyTest: tested.use,
              }
            : isConventionalStep(path.basename(file.absolute))
              ? tests.conventionalStep(file, conventionalTests)
              : undefined;
      const found = appliedBy === undefined ? file : { ...file, appliedBy };
      files.push(found);
      const order = byChainsaw ? parts.applyOrder.get(real) : undefined;
      if (order !== undefined) applyOrder.set(found, order);
    }
  }
  files.sort((a, b) => compareStrings(a.display, b.display));
  return {
    files,
    applyOrder,
    findings: record.findings,
    unrendered: unrendered.sort((a, b) => compareStrings(a.path, b.path)),
  };
}

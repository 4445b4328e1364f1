/**
 * The tests a manifest walk met, and what they make of the files they name: chainsaw tests
 * (`chainsaw-test.yaml`), tests by kuttl's and chainsaw's naming (`00-install.yaml`,
 * `01-assert.yaml`), Gatekeeper and Kyverno policy tests. A file a test applies is a manifest
 * of that test (its namespace, what its earlier steps asserted, its order); one of partial
 * objects it asserts, patches with or deletes is set aside.
 */

import * as path from 'node:path';
import { compareStrings } from '../engine/compare-strings.js';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import { READ_CONCURRENCY, type FoundFile } from './manifest-file-system.js';
import type { ManifestWalkRecord } from './manifest-walk-record.js';
import type { AppliedBy } from './applied-by.js';
import { readPolicyTest, type PolicyTestTool } from './policy-tests.js';
import { readManifestFiles } from './read-manifest-files.js';
import { assertedObjects, readChainsawTest, type ChainsawTest } from './chainsaw-tests.js';
import { JSON_FILE, YAML_FILE } from './unrendered-sources.js';
import { isBelow } from './path-containment.js';
import { TestNamespaces } from './test-namespaces.js';

/**
 * Files sorted by path, but a chainsaw test's in the order its steps apply them (`order`), in
 * the places its files have: the load takes a later apply of an object as an update of the one
 * before (kro's `instance-update.yaml` sorts before `instance.yaml`, and is applied after it).
 */
export function inApplyOrder(
  files: readonly FoundFile[],
  order: ReadonlyMap<FoundFile, number>,
): FoundFile[] {
  const places = new Map<string, number[]>();
  files.forEach((file, at) => {
    const test = file.appliedBy?.test;
    if (test === undefined || !order.has(file)) return;
    const list = places.get(test);
    if (list === undefined) places.set(test, [at]);
    else list.push(at);
  });
  const ordered = [...files];
  for (const at of places.values()) {
    const own = at.map((i) => files[i] as FoundFile);
    own.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    at.forEach((i, k) => (ordered[i] = own[k] as FoundFile));
  }
  return ordered;
}

/** A step's assertion by kuttl's naming (`01-assert.yaml`), not its expected errors. */
const ASSERT_STEP = /^\d+-assert\.ya?ml$/i;

/** The number of a step's file by kuttl's naming (`01` of `01-install.yaml`). */
function stepNumber(name: string): number | undefined {
  const digits = /^(\d+)-/.exec(name)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/**
 * What {@link WalkedTests} shares with the walk that feeds it: its record (the files met, named
 * and taken, where the files a test names are resolved and added), what the walk met of tests,
 * and the tables of the tests its tree is made from.
 */
export interface WalkedTestsOptions {
  /** What the walk met: the files the tests name are looked up, and added, there. */
  readonly record: ManifestWalkRecord;
  /** The chainsaw tests met (`chainsaw-test.yaml`). */
  readonly chainsawTests: readonly FoundFile[];
  /** Real paths of the walked files named as kuttl and chainsaw name assertions. */
  readonly conventionalAssertions: Set<string>;
  /** The directories (absolute) of the numbered steps met (`00-install.yaml`). */
  readonly conventionalStepDirs: ReadonlySet<string>;
  /** Real paths of the walked files named as policy tests are (`suite.yaml`). */
  readonly policyTestCandidates: ReadonlySet<string>;
  /** Filled here: real path of a file a chainsaw test applies -> the test (`null`: several). */
  readonly appliedByTests: Map<string, AppliedBy | null>;
  /** Filled here: real path of a file a chainsaw test applies -> its place among the operations. */
  readonly applyOrder: Map<string, number>;
  /** Filled here: real path of a walked policy test -> its tool. */
  readonly policyTests: Map<string, PolicyTestTool>;
  /** Filled here: real path of a file a policy test uses on its own -> the test, and how. */
  readonly policyTestUses: Map<string, { readonly test: string; readonly use: 'whole' | 'case' }>;
}

/** Reads the tests a walk met once it is over, and tells the walk's tree what they make of files. */
export class WalkedTests {
  readonly #record: ManifestWalkRecord;
  readonly #chainsawTests: readonly FoundFile[];
  readonly #conventionalAssertions: Set<string>;
  readonly #conventionalStepDirs: ReadonlySet<string>;
  readonly #policyTestCandidates: ReadonlySet<string>;
  readonly #appliedByTests: Map<string, AppliedBy | null>;
  readonly #applyOrder: Map<string, number>;
  readonly #policyTests: Map<string, PolicyTestTool>;
  readonly #policyTestUses: Map<string, { readonly test: string; readonly use: 'whole' | 'case' }>;
  /** Real path of a file of partial objects a chainsaw test reads -> the test, and what for. */
  readonly #partialOf = new Map<string, { readonly test: string; readonly operation: string }>();
  /** A directory of a test by kuttl's naming -> what each of its steps' assertions names. */
  readonly #conventionalAsserted = new Map<
    string,
    { readonly step: number; readonly objects: readonly string[] }[]
  >();
  /** The namespaces made for the tests that name none, chainsaw tests' first. */
  readonly #namespaces = new TestNamespaces();

  constructor(options: WalkedTestsOptions) {
    this.#record = options.record;
    this.#chainsawTests = options.chainsawTests;
    this.#conventionalAssertions = options.conventionalAssertions;
    this.#conventionalStepDirs = options.conventionalStepDirs;
    this.#policyTestCandidates = options.policyTestCandidates;
    this.#appliedByTests = options.appliedByTests;
    this.#applyOrder = options.applyOrder;
    this.#policyTests = options.policyTests;
    this.#policyTestUses = options.policyTestUses;
  }

  /**
   * A numbered step of a test by kuttl's and chainsaw's naming, with the objects the test's
   * assertions of earlier steps name (`AppliedBy.existing`): kuttl and chainsaw apply a step,
   * then assert it.
   */
  conventionalStep(file: FoundFile, tests: ReadonlyMap<string, AppliedBy>): AppliedBy | undefined {
    const dir = path.dirname(file.absolute);
    const scope = tests.get(dir);
    const step = stepNumber(path.basename(file.absolute));
    if (scope === undefined || step === undefined) return scope;
    const existing = new Set<string>();
    for (const assertion of this.#conventionalAsserted.get(dir) ?? []) {
      if (assertion.step < step) for (const object of assertion.objects) existing.add(object);
    }
    return existing.size === 0 ? scope : { ...scope, existing: [...existing] };
  }

  /**
   * Reads the assertions of the tests by kuttl's and chainsaw's naming (`00-assert.yaml`) for the
   * objects they name, which the test's later steps then find in the cluster (see
   * `#conventionalStep`). One that cannot be read names none.
   */
  async readConventionalAssertions(): Promise<void> {
    const withTest = this.#chainsawTestDirs();
    // Named as an assertion outside a test's directory (no chainsaw test, no step to apply
    // there): the name says nothing, and the file is read as any other.
    for (const real of this.#conventionalAssertions) {
      const dir = path.dirname((this.#record.files.get(real) as FoundFile).absolute);
      if (!withTest.has(dir) && !this.#conventionalStepDirs.has(dir)) {
        this.#conventionalAssertions.delete(real);
      }
    }
    const found: FoundFile[] = [];
    for (const real of this.#conventionalAssertions) {
      const file = this.#record.files.get(real);
      const name = file && path.basename(file.absolute);
      if (file && name && ASSERT_STEP.test(name) && !withTest.has(path.dirname(file.absolute))) {
        found.push(file);
      }
    }
    const reads = await readManifestFiles(this.#record.fs, found);
    reads.forEach((read, i) => {
      const file = found[i] as FoundFile;
      const step = stepNumber(path.basename(file.absolute));
      if (!('text' in read) || step === undefined) return;
      const dir = path.dirname(file.absolute);
      const list = this.#conventionalAsserted.get(dir) ?? [];
      list.push({ step, objects: assertedObjects(read.text) });
      this.#conventionalAsserted.set(dir, list);
    });
  }

  /**
   * The directories of tests written by kuttl's and chainsaw's naming alone (`00-install.yaml`,
   * `00-assert.yaml`, no `chainsaw-test.yaml`), by absolute path: both run such a directory as
   * a test of its own, in a namespace of its own, applying its numbered steps in turn.
   */
  conventionalTests(): Map<string, AppliedBy> {
    const withTest = this.#chainsawTestDirs();
    const dirs = new Map<string, string>();
    for (const real of this.#conventionalAssertions) {
      const file = this.#record.files.get(real);
      const dir = file && path.dirname(file.absolute);
      if (file && dir && !withTest.has(dir)) dirs.set(dir, path.dirname(file.display));
    }
    const tests = new Map<string, AppliedBy>();
    const sorted = [...dirs].sort(([, a], [, b]) => compareStrings(a, b));
    for (const [dir, display] of sorted) {
      const namespace = this.#namespaces.for(path.basename(dir));
      tests.set(dir, { test: display, namespace, templates: true });
    }
    return tests;
  }

  /** The directories of the chainsaw tests met: a test by kuttl's naming is in none of them. */
  #chainsawTestDirs(): Set<string> {
    return new Set(this.#chainsawTests.map((t) => path.dirname(t.absolute)));
  }

  /**
   * Whether the file at `real` holds an end-to-end test's partial objects: one a chainsaw test
   * names (`by`), or one named as kuttl and chainsaw name an assertion.
   */
  testPartial(real: string): { by: { test: string; operation: string } | undefined } | undefined {
    const by = this.#partialOf.get(real);
    if (by !== undefined) return { by };
    return this.#conventionalAssertions.has(real) ? { by: undefined } : undefined;
  }

  /**
   * Reads the chainsaw tests the walk met for the files of partial objects they name (what they
   * assert, patch with or delete), which are then set aside (see {@link tree}), unless a test
   * also applies, creates or updates the file; a glob of such files is matched on the disk. A
   * test that cannot be read is reported; one that names a file that is not there, or is not
   * YAML, is chainsaw's to report.
   */
  async readChainsawTests(): Promise<void> {
    // In path order, so that the namespaces made for the tests do not depend on the walk's.
    const tests = [...this.#chainsawTests].sort((a, b) => compareStrings(a.display, b.display));
    const reads = await readManifestFiles(this.#record.fs, tests);
    const named: {
      file: string;
      test: string;
      partial: string | undefined;
      existing: readonly string[];
    }[] = [];
    /**
     * Each test's directory (real), by the test as shown; a hidden one's parent, as a test in
     * kyverno/policies' `.chainsaw-test/` is about the policy beside it (`../policy-ready.yaml`).
     */
    const testDirs = new Map<string, string>();
    for (const [i, dir] of (await this.#record.realDirs(tests)).entries()) {
      const scope = path.basename(dir).startsWith('.') ? path.dirname(dir) : dir;
      testDirs.set((tests[i] as FoundFile).display, scope);
    }
    const parsed: { found: FoundFile; test: ChainsawTest }[] = [];
    for (const [i, fileRead] of reads.entries()) {
      const found = tests[i] as FoundFile;
      if ('finding' in fileRead) this.#record.findings.push(fileRead.finding);
      else parsed.push({ found, test: readChainsawTest(fileRead.text, found.absolute) });
    }
    const asserted = await this.#assertedObjects(parsed.map(({ test }) => test));
    // The namespaces tests name first, so that none made for another test is one of them.
    for (const { test } of parsed) {
      if (test.namespace !== undefined) this.#namespaces.take(test.namespace);
    }
    const scopes = new Map<string, AppliedBy>();
    for (const { found, test } of parsed) {
      const { display, absolute } = found;
      const namespace =
        test.namespace ?? this.#namespaces.for(path.basename(path.dirname(absolute)));
      scopes.set(display, { test: display, namespace, templates: test.templates });
      // What the test asserts before each file it applies: in the cluster by then.
      let existing: readonly string[] = [];
      for (const entry of test.files) {
        const { file, partial } = entry;
        if (entry.asserts && !entry.glob) {
          const objects = asserted.get(file) ?? [];
          if (objects.length > 0) existing = [...new Set([...existing, ...objects])];
        }
        if (!entry.glob) {
          named.push({ file, test: display, partial, existing });
          continue;
        }
        const dir = path.dirname(absolute);
        const { glob } = await import('tinyglobby');
        for (const found of await glob(path.relative(dir, file), { cwd: dir, absolute: true })) {
          named.push({ file: found, test: display, partial, existing });
        }
      }
    }
    // A file that is not there: chainsaw's to report.
    const reals = await this.#record.namedRealpaths(named);
    await this.#addNamedOutside(named, reals);
    named.forEach(({ test, partial, existing }, i) => {
      const real = reals[i];
      if (real === undefined) return;
      if (partial === undefined) {
        // A file two tests apply is neither's (nor in their namespace): it is read once, as
        // it is written. One a test applies twice is as its first apply finds the cluster.
        const known = this.#appliedByTests.get(real);
        if (known !== undefined && known !== null && known.test === test) return;
        const scope = scopes.get(test);
        const appliedBy =
          scope === undefined ? null : existing.length === 0 ? scope : { ...scope, existing };
        this.#appliedByTests.set(real, known === undefined ? appliedBy : null);
        if (known === undefined) this.#applyOrder.set(real, i);
        return;
      }
      // Set aside only below the test's own directory (see readKustomizations).
      const testDir = testDirs.get(test) ?? '';
      if (!isBelow(real, testDir) || this.#record.namedApartFrom(real, testDir)) return;
      const known = this.#partialOf.get(real);
      if (known === undefined || compareStrings(test, known.test) < 0) {
        this.#partialOf.set(real, { test, operation: partial });
      }
    });
  }

  /**
   * The objects each test's assertion files name (`assertedObjects`), by the file's absolute
   * path: read only where a test applies a file after asserting one. One that cannot be read
   * names none: chainsaw reports it.
   */
  async #assertedObjects(tests: readonly ChainsawTest[]): Promise<Map<string, string[]>> {
    const files = new Map<string, FoundFile>();
    for (const test of tests) {
      const firstAssert = test.files.findIndex((entry) => entry.asserts && !entry.glob);
      if (firstAssert === -1) continue;
      const applies = test.files.slice(firstAssert).some((entry) => entry.partial === undefined);
      if (!applies) continue;
      for (const entry of test.files) {
        if (entry.asserts && !entry.glob) {
          files.set(entry.file, { display: entry.file, absolute: entry.file });
        }
      }
    }
    const found = [...files.values()];
    const reads = await readManifestFiles(this.#record.fs, found);
    const objects = new Map<string, string[]>();
    reads.forEach((read, i) => {
      if ('text' in read) objects.set((found[i] as FoundFile).absolute, assertedObjects(read.text));
    });
    return objects;
  }

  /**
   * Reads the walked files named as policy tests are (`suite.yaml`, `kyverno-test.yaml`): a
   * Gatekeeper or Kyverno policy test is set aside (see {@link tree}); the constraints and
   * objects it reviews one at a time are checked each on its own (`AppliedBy.policyTest`), and
   * what holds none meant to pass (a constraint a test expects to be refused, Kyverno's values)
   * is set aside. Another tool's `suite.yaml` is a file like any other.
   */
  async readPolicyTests(): Promise<void> {
    const candidates = [...this.#policyTestCandidates].filter(
      (real) => !this.#record.named.has(real),
    );
    const files = candidates.map((real) => this.#record.files.get(real) as FoundFile);
    const reads = await readManifestFiles(this.#record.fs, files);
    /**
     * Each file it names, and how: read as any file (`policy`), checked on its own (`whole`,
     * `case`), or set aside.
     */
    const named: {
      file: string;
      test: string;
      use: 'policy' | 'whole' | 'case' | 'aside';
      operation?: string;
      /** The test's directory, real. */
      dir: string;
    }[] = [];
    reads.forEach((read, i) => {
      const found = files[i] as FoundFile;
      const test = 'text' in read ? readPolicyTest(read.text, found.absolute) : undefined;
      if (test === undefined) return;
      this.#policyTests.set(candidates[i] as string, test.tool);
      const display = found.display;
      const dir = path.dirname(candidates[i] as string);
      for (const file of test.policies) named.push({ file, test: display, use: 'policy', dir });
      for (const file of test.wholes) named.push({ file, test: display, use: 'whole', dir });
      for (const file of test.cases) named.push({ file, test: display, use: 'case', dir });
      for (const { file, operation } of test.aside) {
        named.push({ file, test: display, use: 'aside', operation, dir });
      }
    });
    // A file that is not there: the test's tool reports it.
    const reals = await this.#record.namedRealpaths(named);
    await this.#addNamedOutside(named, reals);
    named.forEach(({ test, use, operation, dir }, i) => {
      const real = reals[i];
      if (real === undefined || use === 'policy') return;
      if (use !== 'aside') {
        if (!this.#policyTestUses.has(real)) this.#policyTestUses.set(real, { test, use });
        return;
      }
      if (this.#record.namedApartFrom(real, dir)) return;
      const known = this.#partialOf.get(real);
      if (known === undefined || compareStrings(test, known.test) < 0) {
        this.#partialOf.set(real, { test, operation: operation ?? '' });
      }
    });
  }

  /**
   * Adds the files tests name that the walk did not meet, outside the paths given (a test's
   * `../policy.yaml`, what `chainsaw test DIR` and `kyverno test DIR` read too), so that a test's
   * directory given alone is checked with what it applies. Each is then the test's as any file it
   * names (see the walk's `tree`). Not one that is no YAML or JSON file, no regular file, or that
   * the ignore patterns skip. Shown relative to the working directory, or absolute beside a test
   * shown so.
   */
  async #addNamedOutside(
    named: readonly { readonly file: string; readonly test: string }[],
    reals: readonly (string | undefined)[],
  ): Promise<void> {
    const outside = named.flatMap(({ file, test }, i) => {
      const real = reals[i];
      return real !== undefined &&
        !this.#record.met.has(real) &&
        (YAML_FILE.test(file) || JSON_FILE.test(file)) &&
        !this.#record.isIgnored(file, false)
        ? [{ file, test, real }]
        : [];
    });
    const regular = new Array<boolean>(outside.length).fill(false);
    const beyond = new Array<boolean>(outside.length).fill(false);
    await forEachConcurrently(outside, READ_CONCURRENCY, async ({ file, real }, i) => {
      beyond[i] = !(await this.#record.isInside(real));
      if (beyond[i]) return;
      try {
        regular[i] = (await this.#record.fs.stat(file)).isFile();
      } catch {
        // Gone since: the test's tool reports it.
      }
    });
    outside.forEach(({ file, test, real }, i) => {
      if (beyond[i]) {
        this.#record.reportOutside(
          path.isAbsolute(test) ? file : path.relative(this.#record.cwd, file),
          real,
          test,
        );
        return;
      }
      if (!regular[i] || this.#record.met.has(real)) return;
      this.#record.met.add(real);
      this.#record.addFile(
        real,
        path.isAbsolute(test) ? file : path.relative(this.#record.cwd, file),
        file,
      );
      if (JSON_FILE.test(file)) this.#record.walkedJson.add(real);
    });
  }
}

/**
 * The end-to-end tests of an operator's repository: a chainsaw test (`chainsaw-test.yaml`) is no
 * resource, and the files it asserts, expects errors from, patches or deletes with hold partial
 * objects that chainsaw matches against a cluster or merges into it (`status: { readyReplicas: 1
 * }`, JMESPath keys), as do kuttl's and chainsaw's files named by convention (`01-assert.yaml`,
 * `02-errors.yaml`) in a test's directory. Read as manifests they are hundreds of missing
 * required fields; the files the tests apply, create or update are read.
 */
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isRecord } from '../engine/resource/plain-data.js';

/** The files chainsaw reads a test from, by default (its `testFile` option). */
const CHAINSAW_TEST_FILES = new Set([
  'chainsaw-test.yaml',
  'chainsaw-test.yml',
  'chainsaw-test.json',
]);

/** Whether a file of this name is a chainsaw test. */
export const isChainsawTestFile = (name: string): boolean => CHAINSAW_TEST_FILES.has(name);

/**
 * A test step's assertion by kuttl's naming (`<step>-assert.yaml`, `<step>-errors.yaml`), which
 * chainsaw's manifests-based tests share: partial objects only in a test's directory, one that
 * holds a chainsaw test or a step the test applies (`00-install.yaml`); elsewhere the name says
 * nothing, and the file is read.
 */
const CONVENTIONAL_ASSERTION = /^\d+-(?:assert|errors)\.ya?ml$/i;

/** Whether a file of this name is an end-to-end test's assertion by kuttl's and chainsaw's naming. */
export const isConventionalAssertion = (name: string): boolean => CONVENTIONAL_ASSERTION.test(name);

/** A test step's file by kuttl's and chainsaw's naming (`<step>-<name>.yaml`). */
const CONVENTIONAL_STEP = /^\d+-.*\.ya?ml$/i;

/**
 * Whether a file of this name is a step an end-to-end test applies by kuttl's and chainsaw's
 * naming (`00-install.yaml`), in a directory of such steps and assertions.
 */
export const isConventionalStep = (name: string): boolean =>
  CONVENTIONAL_STEP.test(name) && !CONVENTIONAL_ASSERTION.test(name);

/**
 * The chainsaw operations whose files hold partial objects, each as a sentence says what the
 * test does with the file: an assertion or an expected error is matched against the cluster,
 * a patch merged into what is there, a deletion names what to delete.
 */
const PARTIAL_OPERATIONS: Readonly<Record<string, string>> = {
  assert: 'asserts: partial objects, not resources',
  error: 'expects errors from: partial objects, not resources',
  patch: 'patches with: partial objects, not resources',
  delete: 'deletes: partial objects, not resources',
};

/** The chainsaw operations whose files are whole resources, sent to the API server. */
const WHOLE_OPERATIONS = new Set(['apply', 'create', 'update']);

/** A file a chainsaw test names: its path (absolute) or glob, and what the test does with it. */
export interface ChainsawTestFile {
  /** The absolute path, or an absolute glob pattern (`*-assert.yaml`), which chainsaw takes. */
  readonly file: string;
  readonly glob: boolean;
  /**
   * What the test does with it and why that is no resource to check, as a sentence says it
   * (`asserts: partial objects, not resources`), or `undefined` for a file it applies, creates or
   * updates: whole resources.
   */
  readonly partial: string | undefined;
  /** Whether the test asserts it: its objects are in the cluster by then, whoever made them. */
  readonly asserts: boolean;
}

/** What the walk takes of a chainsaw test: the files it names, and its own namespace. */
export interface ChainsawTest {
  /**
   * The files it names: the `file` of every operation, in any step and any of its blocks (`try`,
   * `catch`, `finally`, `cleanup`), in each of the file's documents. Those of an `assert`,
   * `error`, `patch` or `delete` hold partial objects, and those it applies, creates or updates
   * expecting an error are meant to be refused: both are `partial`. The others it applies,
   * creates or updates are whole resources.
   */
  readonly files: readonly ChainsawTestFile[];
  /**
   * The namespace the test names (`spec.namespace`), in which it applies the namespaced objects
   * that name none; `undefined`: chainsaw makes one for the test (`chainsaw-<two words>`).
   */
  readonly namespace: string | undefined;
  /** Whether chainsaw evaluates the expressions of the files it applies (`spec.template`). */
  readonly templates: boolean;
}

/**
 * A chainsaw test's files and the namespace it names. A test that is not YAML names none of
 * either: chainsaw reports it.
 */
export function readChainsawTest(text: string, absolute: string): ChainsawTest {
  const named: { name: string; partial: string | undefined; asserts: boolean }[] = [];
  let namespace: string | undefined;
  let templates = true;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const partial = Object.hasOwn(PARTIAL_OPERATIONS, key)
        ? PARTIAL_OPERATIONS[key]
        : WHOLE_OPERATIONS.has(key) && isRecord(child) && expectsError(child.expect)
          ? `${key === 'apply' ? 'applies' : `${key}s`} expecting the API server to refuse it: invalid on purpose`
          : undefined;
      if ((partial !== undefined || WHOLE_OPERATIONS.has(key)) && isRecord(child)) {
        const name = child.file;
        if (typeof name === 'string' && name !== '' && !name.includes('\n')) {
          named.push({ name, partial, asserts: key === 'assert' });
        }
      } else {
        visit(child, depth + 1);
      }
    }
  };
  try {
    for (const document of parseAllDocuments(text, { uniqueKeys: false, logLevel: 'error' })) {
      if (document.errors.length > 0) continue;
      const test: unknown = document.toJS({ maxAliasCount: 100 });
      visit(test, 0);
      const spec = isRecord(test) ? test.spec : undefined;
      if (isRecord(spec) && typeof spec.namespace === 'string' && spec.namespace !== '') {
        namespace ??= spec.namespace;
      }
      if (isRecord(spec) && spec.template === false) templates = false;
    }
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return { files: [], namespace: undefined, templates: true };
  }
  const dir = path.dirname(absolute);
  const files = named
    // chainsaw reads a URL too; only files of the repository are set aside.
    .filter(({ name }) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(name))
    .map(({ name, partial, asserts }) => ({
      file: path.resolve(dir, name),
      glob: GLOB_CHARACTERS.test(name),
      partial,
      asserts,
    }));
  return { files, namespace, templates };
}

/**
 * The objects a test's assertion file names, as `Kind/name` (see `AppliedBy.existing`): each
 * document's `kind` and `metadata.name` where both are plain strings, and `Kind/*` for one that
 * matches objects of its kind by their labels, whatever their names. An assertion that is not
 * YAML names none.
 */
export function assertedObjects(text: string): string[] {
  const objects: string[] = [];
  try {
    for (const document of parseAllDocuments(text, { uniqueKeys: false, logLevel: 'error' })) {
      if (document.errors.length > 0) continue;
      const value: unknown = document.toJS({ maxAliasCount: 100 });
      if (!isRecord(value) || typeof value.kind !== 'string') continue;
      const metadata = value.metadata;
      if (isRecord(metadata) && typeof metadata.name === 'string') {
        objects.push(`${value.kind}/${metadata.name}`);
      } else if (!isRecord(metadata) || metadata.name === undefined) {
        objects.push(`${value.kind}/*`);
      }
    }
  } catch (error) {
    if (!(error instanceof Error)) throw error;
  }
  return objects;
}

/**
 * Whether an operation's `expect` checks that it fails: `($error != null): true`, or
 * `($error): <the message>` (chainsaw's JMESPath over the operation's outcome).
 */
function expectsError(expect: unknown): boolean {
  if (!Array.isArray(expect)) return false;
  return expect.some(
    (entry) =>
      isRecord(entry) &&
      isRecord(entry.check) &&
      Object.entries(entry.check).some(
        ([key, value]) =>
          (/^\(\s*\$error\s*!=\s*null\s*\)$/.test(key) && value === true) ||
          (/^\(\s*\$error\s*\)$/.test(key) && value !== null),
      ),
  );
}

const GLOB_CHARACTERS = /[*?[\]{}]/;

import type { Finding, FindingCode } from '../../loaders/finding.js';
import type { ResourceDocument } from '../../loaders/resource-document.js';
import { saysTooLarge } from '../../loaders/manifest-size.js';
import type { UnrenderedSource } from '../../loaders/unrendered-source.js';

/** The classes of checks `cosi check` runs, in the order it reports them. */
export const CHECK_CLASSES = [
  'setup',
  'types',
  'manifests',
  'controllers',
  'convergence',
  'expectations',
  // `cosi test`: one case per scenario step.
  'scenarios',
] as const;
export type CheckClass = (typeof CHECK_CLASSES)[number];

/**
 * The codes of what `cosi check` finds beyond the loaders' findings, a closed list as theirs is:
 * strict warnings, controllers, convergence and expectations.
 */
export const CHECK_CODES = [
  // Setup: the check could not run (exit 2), reported in the chosen format all the same.
  'config-error',
  'usage-error',
  // cosi itself failed (exit 70): a bug, or out of memory in its own work.
  'internal-error',
  // --typecheck.
  'type-error',
  'typescript-missing',
  'typecheck-failed',
  // --strict warnings.
  'unknown-field',
  'unread-type',
  // Controllers.
  'controller-failed',
  'reconcile-failed',
  'controller-recovered',
  'controller-stopped',
  // Convergence.
  'not-converged',
  // Expectations (--expect).
  'missing-resource',
  'unexpected-resource',
  'unexpected-state',
  'unreadable-expectations',
  'invalid-expectation',
  'not-recorded',
  'sensitive-not-compared',
  // Scenarios (`cosi test`): a scenario that cannot run (exit 2), and steps that failed.
  'invalid-scenario',
  'step-failed',
  'missing-finding',
  'missing-error',
] as const;

/** A code `cosi check` reports: a loader's or one of {@link CHECK_CODES}. */
export type CheckCode = FindingCode | (typeof CHECK_CODES)[number];

/** One case of a check: a manifest file, a controller, the convergence run, an expected resource. */
export interface CheckCase {
  readonly check: CheckClass;
  readonly name: string;
  /** The manifest document a `manifests` case is about (none: a file's findings outside one). */
  readonly resource?: ResourceDocument;
  readonly findings: readonly Finding<CheckCode>[];
  /** Why the case was not run (a scenario's step after a failing one); absent: it ran. */
  readonly skipped?: string;
  /** The file the case is in (a scenario's step: its scenario file): JUnit's suite of it. */
  readonly file?: string;
  /** Wall ms the case took (a scenario's step, with the convergence after it). */
  readonly durationMs?: number;
  /**
   * Wall ms spent before the case on what is no case: the start of the scenario whose first step
   * it is (its config, manifests, first convergence). Counted in its suite's time, not the case's.
   */
  readonly setupMs?: number;
  /**
   * A `manifests` case of findings about a file that is not a manifest (the config's
   * declarations): it counts as no manifest file in the summary.
   */
  readonly notManifest?: true;
}

/**
 * Whether a case neither passed nor failed for not being checked: a document of a kind skipped,
 * a step not run.
 */
export const isSkippedCase = (c: CheckCase): boolean =>
  c.resource?.status === 'skipped' || c.skipped !== undefined;

/** What `--update` did to the golden tree: the files it wrote (new or changed) and removed, as given. */
export interface GoldenUpdate {
  readonly wrote: readonly string[];
  readonly removed: readonly string[];
  /**
   * The golden files whose sensitive values were recorded as `***`, for want of a key
   * (`COSI_GOLDEN_KEY`): a check cannot compare them.
   */
  readonly unsealed?: readonly string[];
}

/** Everything `cosi check` found. */
export interface CheckResult {
  readonly cases: readonly CheckCase[];
  /** Warnings count as failures. */
  readonly strict: boolean;
  /** Under `strict`, the codes of warnings that still do not fail (`--allow-warning`). */
  readonly allowedWarnings?: readonly CheckCode[];
  /**
   * What the walk of the manifest directories set aside, not read as manifests: Helm charts,
   * kustomizations and their patches (see `unrendered-sources.ts`). Neither passes nor fails.
   */
  readonly unrendered?: readonly UnrenderedSource[];
  /** With `--update`, what it changed in the golden tree (a file left as it was is not named). */
  readonly goldenUpdate?: GoldenUpdate;
}

/** A check that could not run (a config or usage error): one `setup` case with why. */
export function setupFailed(findings: readonly Finding<CheckCode>[]): CheckResult {
  return { cases: [{ check: 'setup', name: 'setup', findings }], strict: false };
}

/** What makes a finding fail: a check's strictness, and the warnings it still allows. */
export type FailurePolicy = Pick<CheckResult, 'strict' | 'allowedWarnings'>;

/**
 * A finding that fails its case: an error, or a warning under `--strict` whose code
 * `--allow-warning` does not name.
 */
export const isFailure = (f: Finding<CheckCode>, policy: FailurePolicy): boolean =>
  f.severity === 'error' || (policy.strict && !(policy.allowedWarnings ?? []).includes(f.code));

/**
 * Whether a case fails: a failing finding, or a document the load found invalid (its findings
 * may be past the load's cap, counted in its "and N more").
 */
export const caseFailed = (c: CheckCase, policy: FailurePolicy): boolean =>
  c.resource?.status === 'invalid' || c.findings.some((f) => isFailure(f, policy));

export interface ClassSummary {
  readonly check: CheckClass;
  readonly passed: number;
  readonly failed: number;
  /**
   * Cases that neither passed nor failed: documents of kinds skipped (`--skip-kinds`,
   * `--ignore-unknown-kinds`), which were not checked; a scenario's steps not run.
   */
  readonly skipped: number;
}

/** Passed, failed and skipped cases per check class, for the classes that ran. */
export function summarize(result: CheckResult): ClassSummary[] {
  return CHECK_CLASSES.map((check) => {
    const cases = result.cases.filter((c) => c.check === check);
    const failed = cases.filter((c) => caseFailed(c, result)).length;
    const skipped = cases.filter((c) => isSkippedCase(c) && !caseFailed(c, result)).length;
    return { check, passed: cases.length - failed - skipped, failed, skipped };
  }).filter((s) => s.passed + s.failed + s.skipped > 0);
}

/**
 * `cosi test`'s scenarios, passed and failed, from its cases (one per step, named
 * `file › scenario › step`): a scenario fails when one of its steps does.
 */
export function summarizeScenarios(result: CheckResult): { passed: number; failed: number } {
  const failedOf = new Map<string, boolean>();
  for (const c of result.cases) {
    if (c.check !== 'scenarios') continue;
    const cut = c.name.lastIndexOf(' › ');
    const scenario = cut < 0 ? c.name : c.name.slice(0, cut);
    failedOf.set(scenario, (failedOf.get(scenario) ?? false) || caseFailed(c, result));
  }
  const failed = [...failedOf.values()].filter(Boolean).length;
  return { passed: failedOf.size - failed, failed };
}

/** What the manifests' cases hold, as kubeconform's summary counts it. */
export interface ResourceSummary {
  readonly resources: number;
  readonly files: number;
  readonly valid: number;
  readonly invalid: number;
  readonly skipped: number;
  /**
   * Files that failed whole, with no resource of theirs to count: not UTF-8, nested too deep,
   * not YAML at all, unreadable. Without them `2 valid, 0 invalid` read as a clean run.
   */
  readonly failedFiles: number;
}

/** Findings about a path that is no file: it counts as no file. */
const NOT_READ: ReadonlySet<string> = new Set(['path-not-found', 'symlink-loop']);

/**
 * A manifest file's name: one that cannot be read (`EACCES`, too large, a dangling link) is a
 * file that failed whole. An unreadable directory is none, nor a path named in another way, but
 * for an input too large to read (the standard input, `<(kustomize build)`, `/dev/stdin`): that
 * one was read, as a file.
 */
const MANIFEST_NAME = /\.(?:ya?ml|json)$/i;

/** The resources and files of a check, and how many of them are valid, invalid or skipped. */
export function summarizeResources(result: CheckResult): ResourceSummary {
  const files = new Set<string>();
  let resources = 0;
  let valid = 0;
  let invalid = 0;
  let skipped = 0;
  let failedFiles = 0;
  for (const c of result.cases) {
    if (c.check !== 'manifests') continue;
    if (c.resource === undefined) {
      if (c.name === '(input)' || c.notManifest === true) continue;
      // A path that is not there (or not readable) is no file read, and its finding says so.
      if (c.findings.some((f) => NOT_READ.has(f.code))) continue;
      const unread = c.findings.some((f) => f.code === 'unreadable-file');
      const tooLarge = c.findings.some((f) => saysTooLarge(f.message));
      if (unread && !MANIFEST_NAME.test(c.name) && !tooLarge) continue;
      files.add(c.name);
      if (caseFailed(c, result)) failedFiles++;
      continue;
    }
    files.add(c.resource.file);
    resources++;
    if (c.resource.status === 'skipped') skipped++;
    else if (caseFailed(c, result)) invalid++;
    else valid++;
  }
  return { resources, files: files.size, valid, invalid, skipped, failedFiles };
}

/**
 * The name of what the walk set aside, as a class of skipped cases: JUnit's suite, TAP's points,
 * JSON's entry in `checks`.
 */
export const SET_ASIDE_CHECK = 'set aside';

/**
 * Passed, failed and skipped over a whole check, as every format counts them: the classes' cases,
 * and each source the walk set aside (a Helm chart, a kustomization, a JSON file that is no
 * manifest...) as one skipped, neither passed nor failed, as JUnit's `set aside` suite and TAP's
 * `# SKIP` points list them.
 */
export function checkTotals(result: CheckResult): {
  passed: number;
  failed: number;
  skipped: number;
} {
  const counts = totals(summarize(result));
  return { ...counts, skipped: counts.skipped + (result.unrendered?.length ?? 0) };
}

/** Passed and failed cases over every class. */
export function totals(summary: readonly ClassSummary[]): {
  passed: number;
  failed: number;
  skipped: number;
} {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const s of summary) {
    passed += s.passed;
    failed += s.failed;
    skipped += s.skipped;
  }
  return { passed, failed, skipped };
}

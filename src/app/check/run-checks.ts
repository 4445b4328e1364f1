import * as path from 'node:path';
import { pointerKey } from '../../engine/resource/pointer.js';
import { displayPath } from '../display-path.js';
import type { Finding } from '../../loaders/finding.js';
import type { ResourceDocument } from '../../loaders/resource-document.js';
import { shorten } from '../../loaders/shorten.js';
import type { ProjectRun } from '../run-project.js';
import { runFinding, runFindings } from '../run-findings.js';
import { selectResources } from '../resource-query.js';
import type {
  CheckCase,
  CheckCode,
  CheckResult,
  FailurePolicy,
  GoldenUpdate,
} from './check-result.js';
import { compareExpectations, writeExpectations } from './expectations.js';
import { strictWarnings } from './strict-warnings.js';

export interface CheckOptions {
  readonly strict: boolean;
  /** Under `strict`, the codes of warnings that still do not fail (`--allow-warning`). */
  readonly allowedWarnings?: readonly CheckCode[];
  /** `--expect DIR`, as given, and resolved. */
  readonly expect?: { readonly given: string; readonly dir: string };
  /** `--update`: write the expectations instead of comparing. */
  readonly update: boolean;
  /** `--keep-volatile`: goldens hold (and compare) versions and timestamps too. */
  readonly volatile?: boolean;
  /** The key of the goldens' fingerprints of sensitive values (`COSI_GOLDEN_KEY`), when set. */
  readonly goldenKey?: string;
  /** Paths in findings are shown relative to it. */
  readonly cwd: string;
  /** `--typecheck`: type-check the config with the project's TypeScript. */
  readonly typecheck?: boolean;
}

/** Turns a loaded project into check cases: manifests, controllers, convergence, expectations. */
export async function runChecks(run: ProjectRun, options: CheckOptions): Promise<CheckResult> {
  const cases: CheckCase[] = [];
  // With no controllers at all, every type is unread: that is a schema-only repository, not a smell.
  const { manifests, outcome } = run;
  const report = outcome?.report;
  const runtime = outcome?.project.runtime;
  const graph =
    report && runtime && runtime.controllerNames().length > 0
      ? runtime.dependencyGraph()
      : undefined;
  const findings: Finding<CheckCode>[] = [
    ...manifests.findings,
    ...(report ? strictWarnings(manifests.resources, graph) : []),
    ...(outcome?.findings ?? []),
  ];
  const files = [
    ...new Set([...manifests.files, ...findings.map((f) => f.file).filter((f) => f !== '')]),
  ].sort();
  const configFile = run.config ? displayPath(options.cwd, run.config.file) : '';
  cases.push(...manifestCases(files, configFile, manifests.documents, findings));
  const general = findings.filter((f) => f.file === '');
  if (general.length > 0) cases.push({ check: 'manifests', name: '(input)', findings: general });

  const unrendered = manifests.unrendered;
  if (!outcome || !report) return { cases, ...failurePolicy(options), unrendered };
  // Controller and convergence findings point at the manifest of the resource involved, or else
  // at the config the controllers come from.
  const configAt: Place = {
    file: configFile,
    line: 0,
    col: 0,
  };
  const sources = new Map(manifests.resources.map((r) => [r.key, r.source]));
  const found = runFindings(report, {
    placeOf: (pointer) => sources.get(pointerKey(pointer)),
    config: configAt.file,
    lastChanges: outcome.lastChanges,
  });
  for (const { name, findings } of found.controllers) {
    cases.push({ check: 'controllers', name, findings });
  }
  const convergence = found.convergence;
  cases.push({
    check: 'convergence',
    name: 'convergence',
    findings: convergence,
    // Settled with controllers failing is not converged, and not a convergence that failed:
    // their failures are the controllers' cases.
    ...(report.reason === 'failing' && convergence.length === 0
      ? { skipped: 'controllers kept failing: see their cases' }
      : {}),
  });

  let goldenUpdate: GoldenUpdate | undefined;
  if (options.expect) {
    const groups = selectResources(outcome, {});
    const golden = {
      volatile: options.volatile === true,
      ...(options.goldenKey === undefined ? {} : { key: options.goldenKey }),
    };
    if (!options.update) {
      cases.push(
        ...(await compareExpectations(options.expect.dir, options.expect.given, groups, golden)),
      );
    } else if (report.converged) {
      goldenUpdate = await writeExpectations(
        options.expect.dir,
        groups,
        golden,
        options.expect.given,
      );
    } else {
      // A state that did not settle is no expectation: record nothing, say why.
      cases.push({
        check: 'expectations',
        name: options.expect.given,
        findings: [
          runFinding(
            'not-recorded',
            'error',
            `not recording ${options.expect.given}: the run did not converge (${report.reason})`,
            // Where the controllers that did not settle come from, as `not-converged` falls back.
            configAt,
          ),
        ],
      });
    }
  }
  return {
    cases,
    ...failurePolicy(options),
    unrendered,
    ...(goldenUpdate ? { goldenUpdate } : {}),
  };
}

/** Why a manifest file of no document is a skipped case. */
const NO_DOCUMENT = 'no document in the file: nothing to check';

/**
 * The manifests' cases: one per document, as kubeconform reports each resource, holding the
 * findings between its first line and the next document's; a file gets a case of its own for the
 * findings outside any document (a YAML error before the first one) and when it holds no document.
 */
function manifestCases(
  files: readonly string[],
  configFile: string,
  documents: readonly ResourceDocument[],
  findings: readonly Finding<CheckCode>[],
): CheckCase[] {
  const byFile = new Map<string, ResourceDocument[]>();
  for (const document of documents) {
    let list = byFile.get(document.file);
    if (list === undefined) byFile.set(document.file, (list = []));
    list.push(document);
  }
  const findingsByFile = new Map<string, Finding<CheckCode>[]>();
  for (const finding of findings) {
    let list = findingsByFile.get(finding.file);
    if (list === undefined) findingsByFile.set(finding.file, (list = []));
    list.push(finding);
  }
  const cases: CheckCase[] = [];
  for (const file of files) {
    const own = findingsByFile.get(file) ?? [];
    const docs = (byFile.get(file) ?? []).sort((a, b) => a.line - b.line || a.col - b.col);
    const buckets = docs.map((): Finding<CheckCode>[] => []);
    const loose: Finding<CheckCode>[] = [];
    for (const finding of own) {
      const at = lastAtOrBefore(docs, finding.line);
      if (at < 0) loose.push(finding);
      else buckets[at]?.push(finding);
    }
    if (docs.length === 0 || loose.length > 0) {
      const config = docs.length === 0 && file === configFile;
      cases.push({
        check: 'manifests',
        name: file,
        findings: loose,
        // Findings about the config's declarations (a type written with no definition).
        ...(config ? { notManifest: true as const } : {}),
        // A file of no document (empty, or comments) had nothing to check: skipped, as
        // kubeconform counts it in no status, not a pass that "N passed" counts above the
        // valid resources (cert-manager: 15 passed of 13 valid, for two empty values files).
        ...(docs.length === 0 && loose.length === 0 && !config ? { skipped: NO_DOCUMENT } : {}),
      });
    }
    docs.forEach((document, i) => {
      cases.push({
        check: 'manifests',
        name: documentName(document),
        resource: shortDocument(document),
        findings: buckets[i] ?? [],
      });
    });
  }
  return cases;
}

/** The index of the last document starting at or before `line` (-1: none). */
function lastAtOrBefore(documents: readonly ResourceDocument[], line: number): number {
  let low = 0;
  let high = documents.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((documents[middle] as ResourceDocument).line <= line) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** `file:line Kind namespace/name`, as a test case names a resource. */
function documentName(document: ResourceDocument): string {
  const { kind, name, namespace } = shortDocument(document);
  const id = namespace ? `${namespace}/${name}` : name;
  return `${document.file}:${document.line} ${[kind || '(no kind)', id].filter(Boolean).join(' ')}`;
}

/** Kinds and names come from the input: cut long ones, so that a case stays one short line. */
function shortDocument(document: ResourceDocument): ResourceDocument {
  return {
    ...document,
    kind: shorten(document.kind, 60),
    name: shorten(document.name, 80),
    ...(document.apiVersion === undefined ? {} : { apiVersion: shorten(document.apiVersion, 60) }),
    ...(document.namespace === undefined ? {} : { namespace: shorten(document.namespace, 60) }),
  };
}

/** Where a finding about the run points: a manifest's document, or the config. */
type Place = Pick<Finding<CheckCode>, 'file' | 'line' | 'col'>;

/** `--expect` resolved against the working directory. */
export function resolveExpect(given: string, cwd: string): { given: string; dir: string } {
  return { given, dir: path.resolve(cwd, given) };
}

/** What makes a finding fail, as the options say. */
export function failurePolicy(options: CheckOptions): FailurePolicy {
  const allowed = options.allowedWarnings;
  return allowed && allowed.length > 0
    ? { strict: options.strict, allowedWarnings: allowed }
    : { strict: options.strict };
}

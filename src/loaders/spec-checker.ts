/**
 * The check of a resource's spec (all of a Kubernetes-shaped document) against its type: its
 * schema, with the schema's defaults filled in, then the schema's CEL rules (as an update of its
 * previous revision when it has one), as the API server admits it; and the status of an observed
 * object, as a write to its `/status` is checked. The resources pass (`load-resources.ts`) is
 * given one by the load that runs it, which makes it of the load's definitions and release.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import { checkAgainstSchema } from './definition-schema.js';
import type { DocumentReport } from './document-report.js';
import { createFinding, type Finding } from './finding.js';
import { isPlainObject, type ManifestHeader } from './manifest-document.js';
import type { ApiServerWording, SchemaCompiler } from './schema-compiler.js';
import { schemaHasRules } from './schema-node.js';
import { CostBudget } from './cel/cost-budget.js';
import type { CelRules } from './cel/cel-rule-engine.js';
import type { PriorSpec } from './cel/prior-state.js';
import {
  checkKubernetesDocument,
  kubernetesDocumentOf,
} from './kubernetes/check-kubernetes-document.js';
import { lazyAdmissionCel } from './kubernetes/admission-expressions.js';
import type { ClusterScope } from './kubernetes/kyverno-match.js';
import { releaseMinor, type KubernetesRelease } from './kubernetes/kubernetes-release.js';
import { fillSchemaDefaults, schemaHasDefaults } from './schema-defaults.js';

/** What a load's spec checker is made of. */
export interface SpecCheckerSource {
  /** The given definitions' file (`cosi.config.ts`), where their schema problems are reported. */
  readonly source: string;
  /** The CEL rules of the load's Kubernetes release, asked only for a schema that has rules. */
  readonly celRules: () => CelRules;
  /** The load's Kubernetes release, whose API server's words problems are in; default the newest. */
  readonly builtins?: { readonly release: KubernetesRelease };
}

/**
 * The spec checker of one resources pass: problems of the given definitions' schemas and rules
 * go to `findings` (once each, at `given.source`); the CEL rules are checked unless `skipRules`,
 * or when the pass records a previous revision (`recordPrior`).
 */
export function specCheckerFor(
  given: SpecCheckerSource,
  kinds: { isClusterScoped: ClusterScope },
  compiler: SchemaCompiler,
  findings: Finding[],
  rules: { readonly skipRules?: boolean; readonly recordPrior?: unknown } = {},
): SpecChecker {
  const checkRules = rules.skipRules !== true && rules.recordPrior === undefined;
  const release = given.builtins?.release;
  const wording = release === undefined ? {} : { kubernetesMinor: releaseMinor(release) };
  return new SpecChecker(
    compiler,
    given.source,
    findings,
    checkRules,
    given.celRules,
    wording,
    (kind) => kinds.isClusterScoped(kind),
  );
}

/**
 * Says that a document's CEL rules were skipped for its errors, as the API server adds to them
 * (apiextensions-apiserver's `hasBlockingErr`): fixing what is reported may reveal more.
 */
function rulesNotChecked(definition: ResourceDefinition, report: DocumentReport, at: string): void {
  if (definition.schema === undefined || !schemaHasRules(definition.schema)) return;
  report.add(
    'cel-not-checked',
    at,
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  );
}

/** A checked spec, as it is kept, and what its schema's defaults filled in. */
export interface CheckedSpec {
  readonly spec: unknown;
  /** Pointers into `{ metadata, spec }` of the fields the type's schema defaults filled. */
  readonly defaulted?: readonly string[];
}

/** Checks specs against their type's schema; reports each invalid given schema once. */
export class SpecChecker {
  readonly #reported = new Set<ResourceDefinition>();

  constructor(
    readonly compiler: SchemaCompiler,
    readonly givenSource: string,
    readonly findings: Finding[],
    readonly checkRules: boolean,
    /** The CEL rules of the load's Kubernetes release. */
    readonly celRules: () => CelRules,
    /** The load's Kubernetes release, whose words a Kubernetes object's problems are in. */
    readonly wording: ApiServerWording,
    /** Whether a kind is cluster-scoped, as the load's definitions and built-in kinds tell. */
    readonly isClusterScoped: ClusterScope,
  ) {}

  /** Checks a document's spec (all of a Kubernetes-shaped one); returns the spec to keep. */
  check(
    definition: ResourceDefinition,
    header: ManifestHeader,
    report: DocumentReport,
    previous: PriorSpec | undefined,
    withRules = true,
  ): CheckedSpec {
    const checkRules = this.checkRules && withRules;
    const spec = header.spec;
    if (definition.schema === undefined) return { spec };
    const compiled = this.compiler.compile(definition.schema);
    if (compiled.validate === undefined && !this.#reported.has(definition)) {
      // Only a given definition can get here: a manifest's own invalid schema keeps its
      // definition from being registered.
      this.#reported.add(definition);
      for (const problem of compiled.problems) {
        this.findings.push(
          createFinding({
            code: 'invalid-schema',
            message: `the schema of ${definition.type} is invalid: ${problem.message}`,
            file: this.givenSource,
            line: 0,
            col: 0,
            pointer: '',
            rule: problem.keyword,
          }),
        );
      }
    }
    if (definition.kubernetes !== undefined) {
      const old = isPlainObject(previous?.spec)
        ? previousDocument(definition, header, previous.spec, previous.metadata)
        : undefined;
      const filled: string[] = [];
      // CEL is loaded only when a document writes admission expressions.
      const kept = checkKubernetesDocument(definition, header, compiled, report, {
        previous: old,
        cel: lazyAdmissionCel(this.celRules),
        wording: this.wording,
        isClusterScoped: this.isClusterScoped,
        defaulted: filled,
      });
      // The rules of a CRD see the whole document, as the API server's do, and run beside
      // errors that leave its types whole (a pattern, a minimum), as there.
      if (checkRules && isPlainObject(kept)) {
        const at = header.kubernetes ? '' : '/spec';
        if (report.hasBlockingErrors) rulesNotChecked(definition, report, at);
        else {
          const document = kubernetesDocumentOf(definition, header, kept);
          this.#checkRules(definition, document, report, old && { spec: old }, at);
        }
      }
      // The spec holds the document's fields but apiVersion, kind and metadata.
      const defaulted = filled
        .filter((at) => !/^\/(apiVersion|kind|metadata)(\/|$)/.test(at))
        .map((at) => `/spec${at}`);
      return defaulted.length > 0 ? { spec: kept, defaulted } : { spec: kept };
    }
    const old = previous && { value: previous.spec, schema: definition.schema };
    // The schema's defaults are filled in before the check, so that a spec is kept as the
    // schema (and `cosi explain`'s DEFAULT) says it is: `replicas` is 1 when left out.
    let filled = spec;
    let defaulted: string[] = [];
    // A schema that does not compile checks nothing, and fills nothing in either.
    if (compiled.validate !== undefined && schemaHasDefaults(definition.schema)) {
      filled = structuredClone(spec);
      defaulted = fillSchemaDefaults(filled, definition.schema).map((at) => `/spec${at}`);
    }
    const valid = checkAgainstSchema(compiled, filled, '/spec', report, [], old);
    // As the API server: rules run on a value that passed its schema (their types hold).
    if (compiled.validate !== undefined && checkRules) {
      if (valid) this.#checkRules(definition, filled, report, previous, '/spec');
      else rulesNotChecked(definition, report, '/spec');
    }
    return defaulted.length > 0 ? { spec: filled, defaulted } : { spec: filled };
  }

  /**
   * Checks the status of an observed object (`observed-document.ts`) against its kind's schema,
   * as a write to its `/status` is checked: only what is said of the status is reported (the
   * object's spec is not there), and a kind with the status subresource has it checked too.
   * Returns the status with its kind's defaults, as the API server stores a status it admits
   * (a Gateway's `addresses[].type` is `IPAddress`); `undefined` when the kind has no schema.
   */
  checkStatus(
    definition: ResourceDefinition,
    header: ManifestHeader,
    report: DocumentReport,
  ): Record<string, unknown> | undefined {
    const kubernetes = header.kubernetes;
    if (definition.schema === undefined || definition.kubernetes === undefined) return undefined;
    if (kubernetes === undefined) return undefined;
    const compiled = this.compiler.compile(definition.schema);
    const { metadata, status } = kubernetes.document;
    const document = { apiVersion: kubernetes.apiVersion, kind: kubernetes.kind, metadata, status };
    const found: Finding[] = [];
    const stored = checkKubernetesDocument(
      { ...definition, kubernetes: { ...definition.kubernetes, statusSubresource: false } },
      { ...header, kubernetes: { ...kubernetes, document } },
      compiled,
      report.withFindings(found),
      { wording: this.wording, isClusterScoped: this.isClusterScoped },
    );
    const at = report.pointer('/status');
    report.adopt(found.filter((f) => f.pointer === at || f.pointer.startsWith(`${at}/`)));
    const defaulted = isPlainObject(stored) ? stored.status : undefined;
    return isPlainObject(defaulted) ? defaulted : undefined;
  }

  /** Reports the CEL rules' violations; `at` is where the checked value is in the document. */
  #checkRules(
    definition: ResourceDefinition,
    value: unknown,
    report: DocumentReport,
    previous: { readonly spec: unknown } | undefined,
    at: string,
  ): void {
    const schema = definition.schema as object;
    // Without rules there is nothing to check, and CEL need not be loaded.
    if (!schemaHasRules(schema)) return;
    const celRules = this.celRules();
    const rules = celRules.compileRules(schema);
    if (rules.problems.length > 0 && !this.#reported.has(definition)) {
      // A manifest's definition with a broken rule is refused where it is written; a given one's
      // rules are reported once, at the config.
      this.#reported.add(definition);
      for (const problem of rules.problems) {
        this.findings.push(
          createFinding({
            code: 'cel-invalid-rule',
            message: `a rule of ${definition.type} at ${problem.path} is invalid: ${problem.message}`,
            file: this.givenSource,
            line: 0,
            col: 0,
            pointer: '',
            rule: problem.rule,
          }),
        );
      }
    }
    const violations = celRules.evaluateRules(schema, value, {
      budget: new CostBudget(),
      ...(previous === undefined ? {} : { previous: { value: previous.spec } }),
      ...(definition.kubernetes === undefined ? {} : { typeMeta: true }),
    });
    for (const violation of violations) {
      // A Kubernetes object, checked whole, is told what the API server would tell it.
      const message =
        at === '' ? (violation.apiServerMessage ?? violation.message) : violation.message;
      report.add(violation.code, `${at}${violation.path}`, message, { rule: violation.reason });
    }
  }
}

/** A resource's previous revision as the Kubernetes document it was, its metadata its own. */
function previousDocument(
  definition: ResourceDefinition,
  header: ManifestHeader,
  spec: Record<string, unknown>,
  metadata: unknown,
): Record<string, unknown> {
  const document = kubernetesDocumentOf(definition, header, spec);
  return metadata === undefined ? document : { ...document, metadata };
}

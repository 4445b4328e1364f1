/**
 * The second pass of a load: every document that is not a definition gets its type resolved
 * against the definitions of the first pass (`collect-definitions.ts`), its spec checked against
 * the type's JSON Schema, and becomes a resource unless it has an error finding.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../engine/resource/definition-registry.js';
import { formatPointer, pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type {
  CollectedDefinitions,
  GivenDefinitions,
  InvalidDefinitions,
} from './collect-definitions.js';
import { checkAgainstSchema } from './definition-schema.js';
import type { DocumentReport } from './document-report.js';
import { createFinding, formatLocation, type Finding } from './finding.js';
import type { ManifestResource } from './load-manifests.js';
import { LoadedResource } from './loaded-resource.js';
import { manifestDraft } from './manifest-draft.js';
import { isPlainObject, type ManifestHeader } from './manifest-document.js';
import type { SchemaCompiler } from './schema-compiler.js';
import { CostBudget } from './cel/cost-budget.js';
import { celRules, schemaHasRules } from './cel/cel-rules.js';
import type { PriorState } from './cel/prior-state.js';
import {
  checkKubernetesDocument,
  kubernetesDocumentOf,
} from './kubernetes/check-kubernetes-document.js';
import { isKubernetesShaped } from './kubernetes/kubernetes-shape.js';
import { shorten } from './shorten.js';

/**
 * Makes the resources of the pending documents, in source order. Reports an unknown or
 * ambiguous type, a spec that breaks its type's schema, and a resource defined twice (at the
 * second one); a given definition's invalid schema is reported once, at `given.source`.
 * A spec that passes its schema is then checked against the schema's CEL rules (unless
 * `rules.skipRules`), as an update of its spec in `rules.previous` when it has one there, else
 * as a create. Findings go to `findings`.
 */
export function loadResources(
  collected: CollectedDefinitions,
  given: GivenDefinitions,
  compiler: SchemaCompiler,
  findings: Finding[],
  rules: {
    readonly previous?: PriorState;
    readonly skipRules?: boolean;
    readonly positions?: boolean;
  } = {},
): ManifestResource[] {
  const resources: ManifestResource[] = [];
  const seen = new Map<string, DocumentReport>();
  const schemas = new SpecChecker(compiler, given.source, findings, rules.skipRules !== true);
  const { previous } = rules;
  for (const { report, header } of collected.pending) {
    if (header === undefined) continue;
    const definition =
      header.kubernetes === undefined
        ? resolveType(header.type, collected.registry, report, collected.invalid)
        : collected.kinds.resolve(header.kubernetes, report);
    if (definition === undefined) continue;
    const pointer =
      header.id === undefined
        ? undefined
        : {
            namespace: header.namespace ?? definition.defaultNamespace,
            type: definition.type,
            id: header.id,
          };
    const key = pointer === undefined ? undefined : pointerKey(pointer);
    const spec = schemas.check(
      definition,
      header,
      report,
      key === undefined ? undefined : previous?.get(key),
    );
    if (pointer === undefined || key === undefined) continue;
    if (definition.kubernetes?.namespaced === false && header.namespace !== undefined) {
      report.add(
        'invalid-namespace',
        '/metadata/namespace',
        `${definition.kubernetes.kind} is cluster-scoped: it has no namespace; remove metadata.namespace`,
      );
    }
    reportDuplicate(key, pointer, seen, report);
    if (report.hasErrors) continue;
    resources.push(
      toManifestResource(key, pointer, { ...header, spec }, definition, report, rules.positions),
    );
  }
  return resources;
}

/** The definition a document's type names, or `undefined` (reported) when there is none. */
function resolveType(
  type: string | undefined,
  registry: DefinitionRegistry,
  report: DocumentReport,
  invalid: InvalidDefinitions,
): ResourceDefinition | undefined {
  if (type === undefined) return undefined;
  try {
    return registry.resolve(type);
  } catch (error) {
    if (!(error instanceof TypeResolutionError)) throw error;
    if (error.code === 'ambiguous-type') {
      report.add(
        'ambiguous-type',
        '/metadata/type',
        `the type ${JSON.stringify(shorten(type))} is ambiguous: it matches ${error.candidates.join(', ')}; use the full type`,
      );
      return undefined;
    }
    const definedAt = invalid.find(type);
    report.add(
      'unknown-type',
      '/metadata/type',
      definedAt === undefined
        ? `the type ${JSON.stringify(shorten(type))} is not defined`
        : `the type ${JSON.stringify(shorten(type))} is not defined: its definition at ${formatLocation(definedAt)} is invalid`,
      definedAt === undefined ? {} : { related: definedAt },
    );
    return undefined;
  }
}

/** Checks specs against their type's schema; reports each invalid given schema once. */
class SpecChecker {
  readonly #reported = new Set<ResourceDefinition>();

  constructor(
    readonly compiler: SchemaCompiler,
    readonly givenSource: string,
    readonly findings: Finding[],
    readonly checkRules: boolean,
  ) {}

  /** Checks a document's spec (all of a Kubernetes-shaped one); returns the spec to keep. */
  check(
    definition: ResourceDefinition,
    header: ManifestHeader,
    report: DocumentReport,
    previous: { readonly spec: unknown } | undefined,
  ): unknown {
    const spec = header.spec;
    if (definition.schema === undefined) return spec;
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
      const kept = checkKubernetesDocument(definition, header, compiled, report);
      // The rules of a CRD see the whole document, as the API server's do.
      if (!report.hasErrors && this.checkRules && isPlainObject(kept)) {
        const document = kubernetesDocumentOf(definition, header, kept);
        const old = isPlainObject(previous?.spec)
          ? { spec: kubernetesDocumentOf(definition, header, previous.spec) }
          : undefined;
        this.#checkRules(definition, document, report, old, header.kubernetes ? '' : '/spec');
      }
      return kept;
    }
    const valid = checkAgainstSchema(compiled, spec, '/spec', report);
    // As the API server: rules run on a value that passed its schema (their types hold).
    if (valid && compiled.validate !== undefined && this.checkRules) {
      this.#checkRules(definition, spec, report, previous, '/spec');
    }
    return spec;
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
    const { compileRules, evaluateRules } = celRules();
    const rules = compileRules(schema);
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
    const violations = evaluateRules(schema, value, {
      budget: new CostBudget(),
      ...(previous === undefined ? {} : { previous: { value: previous.spec } }),
    });
    for (const violation of violations) {
      report.add(violation.code, `${at}${violation.path}`, violation.message, {
        rule: violation.reason,
      });
    }
  }
}

/** Reports a resource seen before (at the first one's id); remembers it otherwise. */
function reportDuplicate(
  key: string,
  pointer: Pointer,
  seen: Map<string, DocumentReport>,
  report: DocumentReport,
): void {
  const first = seen.get(key);
  if (first === undefined) {
    seen.set(key, report);
    return;
  }
  const related = first.location(idPointer(first));
  report.add(
    'duplicate-resource',
    idPointer(report),
    `${formatPointer(pointer)} is already defined at ${formatLocation(related)}`,
    { related },
  );
}

/** Where a document names its id: `metadata.name` in a Kubernetes-shaped one. */
function idPointer(report: DocumentReport): string {
  return isKubernetesShaped(report.document.value) ? '/metadata/name' : '/metadata/id';
}

function toManifestResource(
  key: string,
  pointer: Pointer,
  header: ManifestHeader,
  definition: ResourceDefinition,
  report: DocumentReport,
  positions = true,
): ManifestResource {
  const document = report.document;
  const draft = manifestDraft(pointer, header.spec, header.labels, header.annotations);
  return new LoadedResource(
    key,
    draft,
    definition,
    {
      file: document.file,
      line: report.position.line,
      col: report.position.col,
      document: document.index,
    },
    positions ? document.source : undefined,
    // A list item's pointers are inside its list.
    report.pointer(''),
  );
}

/**
 * What compiling one RGD's graph builds up (`resource-graph-definition.ts` runs the steps): the
 * resources' ids, each resource's kind as it is resolved, the references between them, the nodes
 * made, and the expressions kept to be type-checked once every kind is known. Each step of the
 * compile (`compile-resource.ts`, `compile-expressions.ts`, `instance-status.ts`,
 * `graph-type-checks.ts`, `creation-order.ts`) reads and adds to one such record.
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { GraphNode } from '../../controllers/compiled-resource-graph.js';
import type { DocumentReport } from '../document-report.js';
import type { FindingCode, SourceLocation } from '../finding.js';
import { jsonPointer } from '../json-pointer.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import type { KubernetesKinds } from '../kubernetes/kubernetes-kinds.js';
import type * as GraphCel from './graph-cel.js';
import type { VariableSchemas } from './graph-cel.js';
import { requireGraphCel } from './graph-cel-loader.js';
import type { ExpressionCheck, Iterator, ResourceKind, TypeCheckOf } from './expression-checks.js';
import type { RuntimeCalls } from './runtime-calls.js';
import type { RgdReadOptions } from './rgd-instance-type.js';
import { resourceIds } from './resource-ids.js';
import { variableSchemas } from './variable-schemas.js';

/** An expression that is a plain field path: checked against schemas (`field-path-checks.ts`). */
export interface FieldCheck extends ExpressionCheck {
  readonly field: { readonly root: string; readonly path: readonly string[] };
}

/** A string template of a resource template (text around `${...}`): a string must fit its field. */
export interface StringTemplate {
  readonly owner: string;
  readonly target: (string | number)[];
  readonly text: string;
  readonly where: (string | number)[];
}

/** An entry of `status.conditions` (kro's custom conditions), checked by `condition-rules.ts`. */
export interface ConditionEntry {
  readonly source: string;
  readonly at: SourceLocation;
  readonly runtime: RuntimeCalls;
  readonly check: TypeCheckOf;
}

/** The resource whose strings are being compiled, and the iterators its template sees. */
export interface CompilingOwner {
  /** Its id ('' for the instance status). */
  id: string;
  iterators: readonly Iterator[];
  /** The names its forEach declares, while its forEach is compiled. */
  forEach: ReadonlySet<string>;
}

/** A node of the graph, with its resource's place in the declaration. */
export type IndexedNode = GraphNode & { index: number };

/** What one RGD's compile builds up; `failed` once something is refused. */
export interface GraphCompilation {
  readonly report: DocumentReport;
  /** The instance's type. */
  readonly definition: ResourceDefinition;
  readonly kinds: KubernetesKinds;
  readonly compiler: SchemaCompiler;
  readonly options: RgdReadOptions;
  readonly cel: typeof GraphCel;
  failed: boolean;
  /** Each resource's id, in declaration order ('' for one refused). */
  readonly ids: readonly string[];
  /** The ids refused for none. */
  readonly known: ReadonlySet<string>;
  /** Each id's place in the declaration. */
  readonly position: ReadonlyMap<string, number>;
  /** The plain field paths the expressions read, checked once every resource's kind is known. */
  readonly fieldChecks: FieldCheck[];
  /** Every other expression, type-checked as a whole once every resource's kind is known. */
  readonly expressionChecks: ExpressionCheck[];
  /** The string templates of the resource templates: a string must fit their fields. */
  readonly stringTemplates: StringTemplate[];
  /** The type check of each standalone expression of the instance status, by its field. */
  readonly statusChecks: Map<readonly (string | number)[], TypeCheckOf>;
  /** The entries of `status.conditions` (kro's custom conditions). */
  readonly conditionEntries: ConditionEntry[];
  /** The type check of the expression compiled last (a forEach list's, for its iterator). */
  lastTypeCheck?: TypeCheckOf;
  /** The kind of each resource compiled, and whether a reference to it is a list (forEach). */
  readonly kindOf: Map<string, ResourceKind>;
  /** What an owner's expressions read their variables by (`each`: one item of its forEach). */
  readonly schemasFor: (ownerId: string) => VariableSchemas;
  /** Where each resource first references another (`a->b`), for a cycle's finding. */
  readonly refAt: Map<string, SourceLocation>;
  readonly owner: CompilingOwner;
  /** The ids each resource references. */
  readonly deps: Map<string, Set<string>>;
  /** The nodes of the resources compiled, in declaration order. */
  readonly nodes: IndexedNode[];
}

/** A compile of the RGD whose instances are of `definition`, with its `resources` read for ids. */
export function startCompilation(
  report: DocumentReport,
  definition: ResourceDefinition,
  resources: readonly unknown[],
  kinds: KubernetesKinds,
  compiler: SchemaCompiler,
  options: RgdReadOptions,
): GraphCompilation {
  const cel = requireGraphCel();
  let failed = false;
  const ids = resourceIds(resources, (path, message) => {
    failed = true;
    report.add('rgd-bad-resource', jsonPointer(path), message);
  });
  const kindOf = new Map<string, ResourceKind>();
  const schemaOf = variableSchemas(definition, kindOf);
  const schemasOf = new Map<string, VariableSchemas>();
  const schemasFor = (ownerId: string): VariableSchemas => {
    let schemas = schemasOf.get(ownerId);
    if (schemas === undefined) {
      schemas = (name) =>
        name === 'each' ? kindOf.get(ownerId)?.definition.schema : schemaOf(name);
      schemasOf.set(ownerId, schemas);
    }
    return schemas;
  };
  return {
    report,
    definition,
    kinds,
    compiler,
    options,
    cel,
    failed,
    ids,
    known: new Set(ids.filter((id) => id !== '')),
    position: new Map(ids.map((id, i) => [id, i])),
    fieldChecks: [],
    expressionChecks: [],
    stringTemplates: [],
    statusChecks: new Map(),
    conditionEntries: [],
    kindOf,
    schemasFor,
    refAt: new Map(),
    owner: { id: '', iterators: [], forEach: new Set() },
    deps: new Map(),
    nodes: [],
  };
}

/** Refuses what is at `path` of the RGD. */
export function fail(
  compilation: GraphCompilation,
  code: FindingCode,
  path: (string | number)[],
  message: string,
): void {
  compilation.failed = true;
  compilation.report.add(code, jsonPointer(path), message);
}

/** Refuses what is at `at` (an expression's place, or a cycle's). */
export function failAt(
  compilation: GraphCompilation,
  at: SourceLocation,
  code: FindingCode,
  message: string,
): void {
  compilation.failed = true;
  compilation.report.findings.push({ ...at, code, severity: 'error', message });
}

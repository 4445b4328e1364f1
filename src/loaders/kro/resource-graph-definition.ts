/**
 * kro `ResourceGraphDefinition`s (`kro.run/v1alpha1`): each is a type and a controller.
 *
 * - `spec.schema` is the type: SimpleSchema (`simple-schema.ts`) under `spec`, with the group
 *   (`spec.schema.group`, `kro.run` by default), version (`spec.schema.apiVersion`) and kind
 *   (`spec.schema.kind`) kro gives the CRD it generates; its status is open until the graph is
 *   compiled, then typed from the status expressions as kro infers it (`status-schema.ts`).
 *   Instances load, default and validate as any CRD kind.
 * - `spec.resources` is the controller (`controllers/resource-graph.ts`): each resource's
 *   template, its `${...}` expressions (`template-expressions.ts`) compiled, the references
 *   between resources by `id` giving the order (Kahn's, ties by declaration order).
 *
 * A cycle, a reference to an unknown id, an expression that does not parse, a field the schema
 * of what an expression reads does not have, a value whose type does not fit where it goes
 * (plain field paths: `reference-types.ts`; every other expression: `expression-checks.ts`), a
 * template of an unknown kind are refused when the RGD loads, at the expression's
 * `file:line:col` (`rgd-*` findings).
 */

import pluralize from 'pluralize';
import {
  createDefinition,
  DefinitionError,
  type JsonSchema,
  type ResourceDefinition,
} from '../../engine/resource/definition.js';
import type { GraphExpression, TemplateField } from '../../controllers/resource-graph.js';
import type { GraphNode, ResourceGraph } from '../../controllers/compiled-resource-graph.js';
import type { CelRules } from '../cel/cel-rule-engine.js';
import { checkDefinitionSchema } from '../definition-schema.js';
import type { DocumentReport } from '../document-report.js';
import { formatLocation, type FindingCode, type SourceLocation } from '../finding.js';
import { builtinReleaseOf } from '../kubernetes/builtin-kinds.js';
import { jsonPointer, parseJsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import { instancePrintColumns } from './printer-columns.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import { camelPlural } from '../kubernetes/crd-definitions.js';
import { splitApiVersion } from '../kubernetes/kubernetes-shape.js';
import type { KubernetesKinds } from '../kubernetes/kubernetes-kinds.js';
import { findStructuralProblems } from '../kubernetes/structural-check.js';
import { findInvalidDefaults } from '../kubernetes/invalid-defaults.js';
import { SimpleSchemaReader } from './simple-schema.js';
import { iteratorsMissingFromIdentity } from './collection-identity.js';
import {
  externalRefMetadataProblem,
  KRO_RESERVED_WORDS,
  templateConstraintProblems,
} from './template-constraints.js';
import { dotted, templateLiteralProblems } from './template-literals.js';
import { fieldsReferringToNothing, fieldsWithoutExpressions } from './status-fields.js';
import { conditionProblems } from './condition-rules.js';
import type { RuntimeCalls } from './runtime-calls.js';
import { instanceStatusSchema, schemaOfCelType } from './status-schema.js';
import {
  expressionLocation,
  scanTemplateString,
  stringsWithExpressions,
} from './template-expressions.js';
import type { CompiledGraphExpression, VariableSchemas } from './graph-cel.js';
import type { SchemaNode } from '../schema-node.js';
import { requireGraphCel } from './graph-cel-loader.js';
import { kahnOrder } from './topological-order.js';
import { builtinRead, outputAdmission } from './output-admission.js';
import { fieldPathOf, lookupField } from './reference-types.js';
import { celTypeOfSchema, forgetSchemaTypes } from './expression-types.js';
import { typeMismatch } from './type-compatibility.js';
import { formatCelType, primitive } from '../cel/cel-types.js';
import {
  placementProblem,
  targetType,
  expressionVariables,
  typeExpressions,
  type ExpressionCheck,
  type Iterator,
  type TypeCheckOf,
} from './expression-checks.js';
import { didYouMean } from '../did-you-mean.js';
import { locator } from '../template-locator.js';

export const RGD_API_VERSION = 'kro.run/v1alpha1';
export const RGD_KIND = 'ResourceGraphDefinition';
/** The group of an RGD's kind unless `spec.schema.group` says. */
export const KRO_GROUP = 'kro.run';

/** Whether a Kubernetes-shaped document is an RGD. */
export function isRgdDocument(value: Record<string, unknown>): boolean {
  return value.apiVersion === RGD_API_VERSION && value.kind === RGD_KIND;
}

/** An RGD whose type is read; its graph is compiled once every kind of the load is known. */
export interface ReadRgd {
  readonly definition: ResourceDefinition;
  readonly value: Record<string, unknown>;
  readonly report: DocumentReport;
  readonly name: string;
}

/** How RGDs are read. */
export interface RgdReadOptions {
  readonly celRules: () => CelRules;
  readonly kubernetesVersion?: string;
}

const graphs = new WeakMap<ResourceDefinition, ResourceGraph>();
/** The kinds RGDs define: a template of one is a nested instance. */
const rgdKinds = new WeakSet<ResourceDefinition>();

/** The compiled graph of an RGD's kind, when the definition is one. */
export function resourceGraphOf(definition: ResourceDefinition): ResourceGraph | undefined {
  return graphs.get(definition);
}

const ID = /^[a-z][a-zA-Z0-9]*$/;
/** The dimensions a forEach may have: kro's default `--rgd-max-collection-dimension-size`. */
const MAX_FOREACH_DIMENSIONS = 10;
const STRING = primitive('string');

/**
 * Reads an RGD's type: `undefined` (with `rgd-bad-schema` findings) when its schema is refused.
 */
export function readRgd(
  value: Record<string, unknown>,
  name: string | undefined,
  report: DocumentReport,
  compiler: SchemaCompiler,
  options: RgdReadOptions,
): ReadRgd | undefined {
  const spec = isPlainObject(value.spec) ? value.spec : undefined;
  const schemaSpec = spec !== undefined && isPlainObject(spec.schema) ? spec.schema : undefined;
  if (schemaSpec === undefined) {
    report.add('rgd-bad-schema', '/spec', 'a ResourceGraphDefinition needs spec.schema');
    return undefined;
  }
  const bad = (path: (string | number)[], message: string): undefined => {
    report.add('rgd-bad-schema', jsonPointer(path), message);
    return undefined;
  };
  const kind = schemaSpec.kind;
  const version = schemaSpec.apiVersion;
  const group = schemaSpec.group ?? KRO_GROUP;
  if (typeof kind !== 'string' || !/^[A-Z][a-zA-Z0-9]*$/.test(kind)) {
    return bad(
      ['spec', 'schema', 'kind'],
      'spec.schema.kind must be an UpperCamelCase kind (WebApp)',
    );
  }
  if (typeof version !== 'string' || !/^v[0-9]+((alpha|beta)[0-9]+)?$/.test(version)) {
    return bad(
      ['spec', 'schema', 'apiVersion'],
      'spec.schema.apiVersion must be a Kubernetes version (v1alpha1, v1)',
    );
  }
  if (
    typeof group !== 'string' ||
    !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/.test(group)
  ) {
    return bad(['spec', 'schema', 'group'], 'spec.schema.group must be a domain (kro.run)');
  }
  // kro's ResourceScope (api/v1alpha1): the instance CRD is Namespaced (default) or Cluster.
  const scope = schemaSpec.scope ?? 'Namespaced';
  if (scope !== 'Namespaced' && scope !== 'Cluster') {
    return bad(['spec', 'schema', 'scope'], 'spec.schema.scope must be Namespaced or Cluster');
  }
  const reader = new SimpleSchemaReader(report);
  reader.readTypes(schemaSpec.types, ['spec', 'schema', 'types']);
  const specSchema = reader.readObject(schemaSpec.spec ?? {}, ['spec', 'schema', 'spec']);
  if (reader.failed || specSchema === undefined) return undefined;
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: specSchema,
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
  const printColumns = instancePrintColumns(schemaSpec.additionalPrinterColumns, report);
  if (printColumns === undefined) return undefined;
  const plural = pluralize.plural(kind).toLowerCase();
  let definition: ResourceDefinition;
  try {
    definition = createDefinition({
      type: `${camelPlural(plural, kind)}.${group}`,
      displayType: kind,
      aliases: [kind],
      schema,
      printColumns,
      // kro's generated CRD has the status subresource: an instance's status is kro's to write.
      kubernetes: {
        apiVersion: `${group}/${version}`,
        kind,
        namespaced: scope === 'Namespaced',
        statusSubresource: true,
      },
    });
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return bad(['spec', 'schema', 'kind'], error.message);
  }
  const ok = checkDefinitionSchema(
    schema,
    definition.type,
    '/spec/schema/spec',
    report,
    compiler,
    options.celRules,
    findStructuralProblems(schema, { resourceRoot: false }),
  );
  if (!ok) return undefined;
  // The API server refuses the instance CRD kro generates when a default breaks its own field's
  // schema (a pattern, an element's type), so the RGD never becomes active.
  const defaults = findInvalidDefaults(specSchema, compiler);
  for (const problem of defaults) {
    const field = simpleSchemaFieldOf(parseJsonPointer(problem.path));
    report.add(
      'rgd-bad-schema',
      jsonPointer(['spec', 'schema', 'spec', ...field]),
      `spec.${field.join('.')}: ${problem.message}, so the API server refuses the CRD kro generates`,
    );
  }
  if (defaults.length > 0) return undefined;
  rgdKinds.add(definition);
  return { definition, value, report, name: name ?? kind.toLowerCase() };
}

/**
 * Compiles an RGD's resources into its graph (remembered for {@link resourceGraphOf}), reporting
 * every refused resource and expression; false when something was refused.
 */
export function compileResourceGraph(
  rgd: ReadRgd,
  kinds: KubernetesKinds,
  compiler: SchemaCompiler,
  options: RgdReadOptions,
): boolean {
  const { report, value, definition } = rgd;
  const spec = value.spec as Record<string, unknown>;
  const cel = requireGraphCel();
  const outcome = { failed: false };
  const fail = (code: FindingCode, path: (string | number)[], message: string): void => {
    outcome.failed = true;
    report.add(code, jsonPointer(path), message);
  };
  const resources = spec.resources ?? [];
  if (!Array.isArray(resources)) {
    fail('rgd-bad-resource', ['spec', 'resources'], 'spec.resources must be a list');
    return false;
  }
  const ids: string[] = [];
  const seen = new Set<string>();
  resources.forEach((resource, i) => {
    const id = isPlainObject(resource) ? resource.id : undefined;
    if (typeof id !== 'string' || !ID.test(id)) {
      fail(
        'rgd-bad-resource',
        ['spec', 'resources', i, 'id'],
        'every resource needs an id in lowerCamelCase (deployment, webService)',
      );
      ids.push('');
    } else if (KRO_RESERVED_WORDS.has(id)) {
      fail(
        'rgd-bad-resource',
        ['spec', 'resources', i, 'id'],
        `the id ${JSON.stringify(id)} is a reserved keyword in kro`,
      );
      ids.push('');
    } else if (seen.has(id)) {
      fail(
        'rgd-bad-resource',
        ['spec', 'resources', i, 'id'],
        `the id ${JSON.stringify(id)} is used twice`,
      );
      ids.push('');
    } else {
      ids.push(id);
      seen.add(id);
    }
  });
  const known = new Set(ids.filter((id) => id !== ''));
  /** Each id's place in the declaration. */
  const position = new Map(ids.map((id, i) => [id, i]));

  /** The plain field paths the expressions read, checked once every resource's kind is known. */
  const fieldChecks: FieldCheck[] = [];
  /** Every other expression, type-checked as a whole once every resource's kind is known. */
  const expressionChecks: ExpressionCheck[] = [];
  /** The string templates of the resource templates: a string must fit their fields. */
  const stringTemplates: {
    owner: string;
    target: (string | number)[];
    text: string;
    where: (string | number)[];
  }[] = [];
  /** The type check of each standalone expression of the instance status, by its field. */
  const statusChecks = new Map<readonly (string | number)[], TypeCheckOf>();
  /** The entries of `status.conditions` (kro's custom conditions), checked by `condition-rules.ts`. */
  const conditionEntries: {
    source: string;
    at: SourceLocation;
    runtime: RuntimeCalls;
    check: TypeCheckOf;
  }[] = [];
  /** The type check of the expression compiled last (a forEach list's, for its iterator). */
  const typeCheckOfLast: { check?: TypeCheckOf } = {};
  /** The kind of each resource compiled, and whether a reference to it is a list (forEach). */
  const kindOf = new Map<
    string,
    { definition: ResourceDefinition; list: boolean; external: boolean }
  >();

  const schemaOf = variableSchemas(definition, kindOf);
  /** What each owner's expressions read `each` as: one item of that (forEach) resource. */
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

  /** Where each resource first references another (`a->b`), for the cycle's finding. */
  const refAt = new Map<string, SourceLocation>();
  /** The resource whose strings are being compiled, and the iterators its template sees. */
  const owner: { id: string; iterators: readonly Iterator[]; forEach: ReadonlySet<string> } = {
    id: '',
    iterators: [],
    forEach: new Set(),
  };

  /**
   * Compiles the expressions of the strings below `at`; the `allowed` variables may be
   * referenced besides schema and the resources. `context` names where they are when it is not
   * a resource template (`includeWhen`...): `omit()` is refused there.
   */
  const compileStrings = (
    root: unknown,
    at: (string | number)[],
    allowed: ReadonlySet<string>,
    into: Set<string>,
    context?: string,
  ): TemplateField[] | undefined => {
    const fields: TemplateField[] = [];
    let ok = true;
    for (const { path, text } of stringsWithExpressions(root)) {
      const where = [...at, ...path];
      const scanned = scanTemplateString(text);
      if (scanned === undefined) continue;
      if ('error' in scanned) {
        fail('rgd-bad-expression', where, scanned.error);
        ok = false;
        continue;
      }
      const parts: (string | GraphExpression)[] = [];
      for (const part of scanned.parts) {
        if (typeof part === 'string') {
          parts.push(part);
          continue;
        }
        const exprLocation = expressionLocation(report, jsonPointer(where), text, part);
        const compiled = cel.compileGraphExpression(part.source, options.kubernetesVersion);
        const findingAt = (code: FindingCode, message: string): void => {
          outcome.failed = true;
          ok = false;
          report.findings.push({ ...exprLocation, code, severity: 'error', message });
        };
        if ('error' in compiled) {
          // At the token the parser stopped at (`1:18: found + ...`), when the expression is
          // written in the file as in the string (no escape, one line); else at its `${`.
          const token = tokenLocation(report, jsonPointer(where), part.source, compiled.error);
          outcome.failed = true;
          ok = false;
          report.findings.push({
            ...(token !== undefined &&
            token.start.line === exprLocation.line &&
            token.start.col === exprLocation.col
              ? { ...exprLocation, col: exprLocation.col + token.columns }
              : exprLocation),
            code: 'rgd-bad-expression',
            severity: 'error',
            message: `\${${part.source}} does not compile: ${compiled.error}`,
          });
          continue;
        }
        if (
          (compiled.runtime.uses || compiled.variables.includes('runtime')) &&
          context !== STATUS_CONDITIONS
        ) {
          // kro's runtime library (v0.9.x: runtime.newCondition, runtime.condition) is bound
          // only in status.conditions (builder.go extractDependencies, buildConditions).
          findingAt(
            'rgd-bad-expression',
            `\${${part.source}}: runtime is only available in status.conditions expressions, as kro requires`,
          );
          continue;
        }
        if (context === STATUS_CONDITIONS) {
          conditionEntries.push({
            source: part.source,
            at: exprLocation,
            runtime: compiled.runtime,
            check: compiled.check,
          });
        }
        if (compiled.unknownFunctions.length > 0) {
          // kro's build refuses it (builder.go: "uses unknown functions"); cosi's planner would
          // fail only when an instance renders it.
          findingAt(
            'rgd-bad-expression',
            `\${${part.source}} uses unknown functions: ${compiled.unknownFunctions.join(', ')}`,
          );
          continue;
        }
        const omitProblem = compiled.usesOmit
          ? whereOmitIsRefused(context, scanned.standalone, path)
          : undefined;
        if (omitProblem !== undefined) {
          findingAt('rgd-bad-expression', `\${${part.source}}: omit() ${omitProblem}`);
          continue;
        }
        if (compiled.usesOmit) {
          // cosi renders omit() as kro does with the gate on; kro refuses it with the gate off
          // (its default: pkg/features/features.go, builder.go extractDependencies).
          report.findings.push({
            ...exprLocation,
            code: 'rgd-feature-gate',
            severity: 'warning',
            message: `\${${part.source}}: omit() requires kro's CELOmitFunction feature gate, which is off by default (--feature-gates=CELOmitFunction=true); a kro without it refuses this RGD`,
          });
        }
        const references: string[] = [];
        for (const variable of compiled.variables) {
          // kro's readyWhen sees only the resource itself (each item, as `each`, of a collection).
          const accepted =
            context === 'readyWhen'
              ? allowed.has(variable)
              : variable === 'schema' || allowed.has(variable) || known.has(variable);
          if (accepted) {
            references.push(variable);
            if (variable !== 'schema' && !allowed.has(variable)) {
              into.add(variable);
              const key = `${owner.id}->${variable}`;
              if (!refAt.has(key)) refAt.set(key, exprLocation);
            }
          } else if (context === 'readyWhen') {
            findingAt(
              'rgd-unknown-ref',
              `\${${part.source}} references ${JSON.stringify(variable)}: a readyWhen may reference only ${allowed.has('each') ? 'each (one item of this forEach resource)' : `the resource itself (${[...allowed].join('')})`}, as kro allows`,
            );
          } else if (context === 'forEach' && owner.forEach.has(variable)) {
            // kro builder.go: the iterators of a forEach are independent (a cartesian product).
            findingAt(
              'rgd-unknown-ref',
              `\${${part.source}}: forEach iterator ${JSON.stringify(String(path[0]))} cannot reference other iterators [${variable}] - forEach iterators are independent (cartesian product)`,
            );
          } else {
            findingAt(
              'rgd-unknown-ref',
              `\${${part.source}} references ${JSON.stringify(variable)}, which is neither schema nor the id of a resource of this RGD (${[...known].join(', ') || 'none'})`,
            );
          }
        }
        const field = fieldPathOf(part.source);
        const check: ExpressionCheck = {
          source: part.source,
          check: compiled.check,
          at: exprLocation,
          standalone: scanned.standalone,
          owner: owner.id,
          iterators: owner.iterators,
          ...(context === undefined ? { target: path } : {}),
          ...(context !== undefined && CONTEXT_TYPES[context] !== undefined
            ? { context, expect: CONTEXT_TYPES[context] }
            : {}),
        };
        typeCheckOfLast.check = compiled.check;
        if (context === 'the instance status' && scanned.standalone) {
          statusChecks.set(path, compiled.check);
        }
        if (field !== undefined && (field.root === 'schema' || known.has(field.root))) {
          fieldChecks.push({ ...check, field });
        } else expressionChecks.push(check);
        parts.push(
          toGraphExpression(
            part.source,
            formatLocation(exprLocation),
            references,
            compiled,
            schemasFor(owner.id),
          ),
        );
      }
      fields.push({ path, standalone: scanned.standalone, parts });
      if (!scanned.standalone && context === undefined) {
        stringTemplates.push({ owner: owner.id, target: path, text, where });
      }
    }
    return ok ? fields : undefined;
  };

  const nodes: (GraphNode & { index: number })[] = [];
  const deps = new Map<string, Set<string>>();
  resources.forEach((resource, i) => {
    const id = ids[i];
    if (!isPlainObject(resource) || id === undefined || id === '') return;
    const at: (string | number)[] = ['spec', 'resources', i];
    const external = resource.externalRef !== undefined;
    const collection = Array.isArray(resource.forEach) && resource.forEach.length > 0;
    if (external && (resource.template !== undefined || collection)) {
      fail(
        'rgd-bad-resource',
        at,
        `resource ${id}: an externalRef has no template or forEach: it reads an existing resource`,
      );
      return;
    }
    const template = external ? resource.externalRef : resource.template;
    const templateKey = external ? 'externalRef' : 'template';
    if (!isPlainObject(template)) {
      fail('rgd-bad-resource', [...at, templateKey], `resource ${id} needs a template`);
      return;
    }
    const refMetadata = external && isPlainObject(template.metadata) ? template.metadata : {};
    const externalCollection = external && refMetadata.selector !== undefined;
    if (external) {
      const named = typeof refMetadata.name === 'string' && refMetadata.name !== '';
      const problem = externalRefMetadataProblem(named, refMetadata.selector);
      if (problem !== undefined) {
        // `metadata:` left empty and `name:` one level up (kro's gcp/gemma-on-tpu): kro's CRD
        // has no such field beside metadata, so kubectl refuses it as unknown.
        const misplaced = problem.path.length === 0 ? misplacedMetadataKey(template) : undefined;
        fail(
          'rgd-bad-resource',
          [...at, 'externalRef', ...(misplaced === undefined ? problem.path : [misplaced])],
          misplaced === undefined
            ? `resource ${id}: ${problem.message}`
            : `resource ${id}: ${problem.message}: this one has ${misplaced} beside metadata, where kro's externalRef has no such field: indent it under metadata`,
        );
        return;
      }
    }
    const into = new Set<string>();
    owner.id = id;
    owner.iterators = [];
    owner.forEach = new Set(iteratorNames(resource.forEach));
    const forEach = compileForEach(resource.forEach, [...at, 'forEach'], into);
    owner.forEach = new Set();
    // A refused forEach still declares its iterators: their uses are not unknown references.
    const iterators = new Set(forEach?.map((d) => d.name) ?? iteratorNames(resource.forEach));
    owner.iterators = (forEach ?? []).map((d) => ({ name: d.name, list: d.check }));
    const fields = compileStrings(template, [...at, templateKey], iterators, into);
    owner.iterators = [];
    const includeWhen = compileConditions(
      resource.includeWhen,
      [...at, 'includeWhen'],
      new Set(),
      into,
      'includeWhen',
    );
    const readyWhen = compileConditions(
      resource.readyWhen,
      [...at, 'readyWhen'],
      new Set([collection || externalCollection ? 'each' : id]),
      new Set(),
      'readyWhen',
    );
    deps.set(id, into);
    const apiVersion = template.apiVersion;
    const kind = template.kind;
    if (
      typeof apiVersion !== 'string' ||
      typeof kind !== 'string' ||
      apiVersion.includes('${') ||
      kind.includes('${')
    ) {
      fail(
        'rgd-bad-resource',
        [...at, templateKey],
        `resource ${id}: the ${templateKey} needs a literal apiVersion and kind`,
      );
      return;
    }
    if (!external && !isPlainObject(template.metadata)) {
      // kro's validateKubernetesObjectStructure (pkg/graph/validation.go).
      fail(
        'rgd-bad-resource',
        [...at, templateKey],
        `resource ${id} is not a valid Kubernetes object: ${template.metadata === undefined ? 'metadata field not found' : 'metadata field is not a map'}`,
      );
      return;
    }
    const output = kinds.find({ ...splitApiVersion(apiVersion), kind });
    if (output === undefined) {
      const invalid = kinds.invalidAt(splitApiVersion(apiVersion).group, kind);
      fail(
        'rgd-unknown-kind',
        [...at, templateKey, 'kind'],
        invalid === undefined
          ? `resource ${id}: no CRD or built-in kind defines ${apiVersion} ${kind}`
          : `resource ${id}: kind ${kind} of ${apiVersion} is not defined: its ${invalid.what} at ${formatLocation(invalid.at)} is invalid${invalid.what === 'ResourceGraphDefinition' ? ' (kro creates the CRD of an RGD only once its graph builds)' : ''}`,
      );
      return;
    }
    kindOf.set(id, { definition: output, list: collection || externalCollection, external });
    const namespaced = output.kubernetes?.namespaced !== false;
    const constraints = templateConstraintProblems(
      id,
      template,
      namespaced,
      definition.kubernetes?.namespaced !== false,
      externalCollection,
    );
    for (const problem of constraints) {
      fail('rgd-bad-resource', [...at, templateKey, ...problem.path], problem.message);
    }
    // kro reads a CRD's template without its schema, and takes expressions only in its metadata
    // (builder.go: "CEL expressions in CRDs are only supported for metadata fields").
    const crd = apiVersion === 'apiextensions.k8s.io/v1' && kind === 'CustomResourceDefinition';
    const crdExpressions = crd
      ? (fields ?? []).filter((f) => f.path[0] !== 'metadata' || f.path.length < 2)
      : [];
    for (const field of crdExpressions) {
      fail(
        'rgd-bad-expression',
        [...at, templateKey, ...field.path],
        `resource ${id}: CEL expressions in CRDs are only supported for metadata fields, found in path ${JSON.stringify(dotted(field.path))}`,
      );
    }
    // kro's parser reads the template against its kind's schema when it builds the RGD.
    const literals =
      external || crd || output.schema === undefined
        ? []
        : templateLiteralProblems(template, output.schema, `${kind} (${apiVersion})`);
    for (const problem of literals) {
      outcome.failed = true;
      report.add(
        problem.code,
        jsonPointer([...at, templateKey, ...problem.path]),
        `resource ${id}: ${problem.message}`,
        problem.key === true ? { part: 'key' } : {},
      );
    }
    if (
      constraints.length > 0 ||
      literals.length > 0 ||
      crdExpressions.length > 0 ||
      fields === undefined ||
      includeWhen === undefined ||
      readyWhen === undefined ||
      forEach === undefined
    ) {
      return;
    }
    const missing = iteratorsMissingFromIdentity(
      forEach.map((d) => d.name),
      fields,
      namespaced,
    );
    if (missing.length > 0) {
      fail(
        'rgd-bad-resource',
        [...at, 'forEach', forEach.findIndex((d) => d.name === missing[0])],
        `resource ${id}: all forEach dimensions must be used to produce a unique resource identity (metadata.name${namespaced ? ' or metadata.namespace' : ''}), as kro requires; missing: ${missing.join(', ')}`,
      );
      return;
    }
    nodes.push({
      index: i,
      id,
      type: output.type,
      namespaced,
      template,
      fields,
      includeWhen,
      readyWhen,
      ...(forEach.length > 0 ? { forEach } : {}),
      ...(external ? { external } : {}),
      ...(externalCollection ? { externalCollection } : {}),
      ...(rgdKinds.has(output) ? { nested: true } : {}),
      dependencies: [...into].sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0)),
      admit: outputAdmission(output, compiler, options),
      ...(external && builtinReleaseOf(output) !== undefined ? { read: builtinRead(output) } : {}),
      locate: locator(report, [...at, templateKey]),
    });
  });

  /** `forEach: [{ name: "${list}" }, ...]`: the iterators and their lists. */
  function compileForEach(
    forEach: unknown,
    at: (string | number)[],
    into: Set<string>,
  ): { name: string; expression: GraphExpression; check: TypeCheckOf }[] | undefined {
    // kro builds a collection only of a non-empty forEach (builder.go: len(ForEach) > 0).
    if (forEach === undefined || forEach === null) return [];
    if (!Array.isArray(forEach)) {
      fail('rgd-bad-resource', at, 'forEach must be a list of { iterator: "${list}" } mappings');
      return undefined;
    }
    if (forEach.length > MAX_FOREACH_DIMENSIONS) {
      // kro's validateForEachDimensions (pkg/graph/validation.go).
      fail(
        'rgd-bad-resource',
        at,
        `forEach cannot have more than ${MAX_FOREACH_DIMENSIONS} dimensions, got ${forEach.length} (kro's default --rgd-max-collection-dimension-size)`,
      );
      return undefined;
    }
    const out: { name: string; expression: GraphExpression; check: TypeCheckOf }[] = [];
    for (const [i, dimension] of forEach.entries()) {
      const entries = isPlainObject(dimension) ? Object.entries(dimension) : [];
      const [entry] = entries;
      if (entries.length !== 1 || entry === undefined || typeof entry[1] !== 'string') {
        fail(
          'rgd-bad-resource',
          [...at, i],
          'each forEach entry is one iterator: { name: "${list}" }',
        );
        return undefined;
      }
      const [name, text] = entry;
      if (!ID.test(name) || KRO_RESERVED_WORDS.has(name) || known.has(name)) {
        fail(
          'rgd-bad-resource',
          [...at, i],
          `the forEach iterator ${JSON.stringify(name)} must be a lowerCamelCase name that is not a resource id or reserved`,
        );
        return undefined;
      }
      if (out.some((d) => d.name === name)) {
        fail(
          'rgd-bad-resource',
          [...at, i],
          `duplicate forEach iterator name ${JSON.stringify(name)}`,
        );
        return undefined;
      }
      const [expression] =
        standaloneExpressions({ [name]: text }, [...at, i], new Set(), into, 'forEach') ?? [];
      const check = typeCheckOfLast.check;
      if (expression === undefined || check === undefined) return undefined;
      out.push({ name, expression, check });
    }
    return out;
  }

  function compileConditions(
    conditions: unknown,
    at: (string | number)[],
    allowed: ReadonlySet<string>,
    into: Set<string>,
    context: string,
  ): GraphExpression[] | undefined {
    if (conditions === undefined) return [];
    if (!Array.isArray(conditions) || conditions.some((c) => typeof c !== 'string')) {
      fail('rgd-bad-resource', at, 'conditions must be a list of "${...}" strings');
      return undefined;
    }
    return standaloneExpressions(conditions, at, allowed, into, context);
  }

  /** The strings below `at` (conditions, a forEach iterator's list), each one standalone `${}`. */
  function standaloneExpressions(
    root: unknown,
    at: (string | number)[],
    allowed: ReadonlySet<string>,
    into: Set<string>,
    context: string,
  ): GraphExpression[] | undefined {
    const what = context === 'forEach' ? 'a forEach list' : 'a condition';
    for (const { path, text } of stringsOf(root)) {
      if (text.includes('${')) continue;
      // kro unwraps each entry (parser.UnwrapExpressions): one without ${} is refused, not true.
      fail(
        'rgd-bad-expression',
        [...at, ...path],
        `${what} must be one standalone \${...} expression (${JSON.stringify(text)} has none: write "\${${text}}")`,
      );
      return undefined;
    }
    const fields = compileStrings(root, at, allowed, into, context);
    if (fields === undefined) return undefined;
    const out: GraphExpression[] = [];
    for (const field of fields) {
      const expression = field.parts[0];
      if (!field.standalone || expression === undefined || typeof expression === 'string') {
        fail(
          'rgd-bad-expression',
          [...at, ...field.path],
          `${what} must be one standalone \${...} expression`,
        );
        return undefined;
      }
      out.push(expression);
    }
    return out;
  }

  const givenStatus = isPlainObject(spec.schema) ? spec.schema.status : undefined;
  const statusInto = new Set<string>();
  owner.id = '';
  owner.iterators = [];
  // kro takes `conditions` out of the status first (extractConditionExpressions): each entry is
  // one `${...}` giving a condition or a list of them, written to the instance's conditions.
  const { conditions: conditionsSpec, ...statusSpec } = isPlainObject(givenStatus)
    ? givenStatus
    : { conditions: undefined };
  const conditions =
    conditionsSpec === undefined
      ? []
      : (compileConditions(
          conditionsSpec,
          ['spec', 'schema', 'status', 'conditions'],
          new Set(),
          statusInto,
          STATUS_CONDITIONS,
        ) ?? []);
  const status =
    compileStrings(
      statusSpec,
      ['spec', 'schema', 'status'],
      new Set(),
      statusInto,
      'the instance status',
    ) ?? [];
  for (const path of fieldsWithoutExpressions(statusSpec)) {
    fail(
      'rgd-bad-expression',
      ['spec', 'schema', 'status', ...path],
      `status.${path.join('.')} has no \${...} expression: kro computes the whole status from expressions, and refuses a constant field ("status fields without expressions are not supported")`,
    );
  }
  for (const field of fieldsReferringToNothing(status)) {
    fail(
      'rgd-bad-expression',
      ['spec', 'schema', 'status', ...field.path],
      `status.${field.path.join('.')} refers to neither schema nor a resource: kro refuses it ("instance status field must refer to a resource or schema")`,
    );
  }

  for (const check of fieldChecks) {
    const problem = checkFieldTypes(check, definition, kindOf);
    if (problem === undefined) continue;
    outcome.failed = true;
    report.findings.push({
      ...check.at,
      code: problem.code,
      severity: 'error',
      message: problem.message,
    });
  }

  // kro builds a string template as a concatenation of strings, whose value must fit the field.
  for (const template of stringTemplates) {
    const expected = targetType(template, kindOf);
    if (expected === undefined || typeMismatch(STRING, expected.type) === undefined) continue;
    fail(
      'rgd-type-mismatch',
      template.where,
      `${JSON.stringify(template.text)} is a string template, but ${expected.where} is of type ${formatCelType(expected.type)}`,
    );
  }

  const typed = typeExpressions(expressionChecks, definition, kindOf, known);
  for (const finding of typed) {
    outcome.failed = true;
    report.findings.push({
      ...finding.at,
      code: finding.code,
      severity: 'error',
      message: finding.message,
    });
  }

  if (conditionEntries.length > 0) {
    const types = expressionVariables(definition, kindOf, known);
    const entries = conditionEntries.map((entry) => ({ ...entry, type: entry.check(types).type }));
    for (const problem of conditionProblems(entries)) {
      outcome.failed = true;
      report.findings.push({
        ...problem.at,
        code: 'rgd-bad-expression',
        severity: 'error',
        message: problem.message,
      });
    }
  }

  const order = kahnOrder(ids, deps);
  if (order.cycle.length > 0) {
    const cycle = order.cycle;
    const first = cycle[0] ?? '';
    const next = cycle.find((id) => deps.get(first)?.has(id)) ?? cycle[1] ?? first;
    const at = refAt.get(`${first}->${next}`) ?? report.location('/spec/resources');
    outcome.failed = true;
    report.findings.push({
      ...at,
      code: 'rgd-cycle',
      severity: 'error',
      message: `the resources ${cycle.join(', ')} reference each other in a cycle (${first} references ${next} here): kro needs an order to create them in`,
    });
  }
  if (outcome.failed) return false;
  // kro writes the status fields, typed from their expressions, into the instance's CRD.
  const variables = expressionVariables(definition, kindOf, known);
  setInstanceStatus(
    definition,
    instanceStatusSchema(
      status
        .filter((field) => field.path[0] !== 'conditions')
        .map((field) => {
          const check = statusChecks.get(field.path);
          return {
            path: field.path,
            schema: !field.standalone
              ? { type: 'string' }
              : check === undefined
                ? { 'x-kubernetes-preserve-unknown-fields': true }
                : schemaOfCelType(check(variables).type),
          };
        }),
    ),
  );
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const sorted = order.order.flatMap((id) => {
    const node = byId.get(id);
    return node === undefined ? [] : [node];
  });
  graphs.set(definition, {
    name: rgd.name,
    instanceType: definition.type,
    ...(definition.kubernetes === undefined
      ? {}
      : {
          instanceKind: {
            apiVersion: definition.kubernetes.apiVersion,
            kind: definition.kubernetes.kind,
            namespaced: definition.kubernetes.namespaced,
          },
        }),
    nodes: sorted,
    status,
    ...(conditions.length === 0 ? {} : { conditions }),
    locateStatus: locator(report, ['spec', 'schema', 'status']),
    locateSchema: locator(report, ['spec', 'schema', 'spec']),
    source: value,
  });
  return true;
}

/**
 * Gives the instance's type its inferred status schema, in place: the type's schema object stays
 * the one compiled when the RGD was read (once per load; the status of an instance's manifest is
 * dropped, not checked, as the kind has the status subresource). The CEL types made of the schema
 * so far, with its status open, are forgotten.
 */
function setInstanceStatus(definition: ResourceDefinition, status: JsonSchema): void {
  const schema = definition.schema;
  if (schema === undefined || !isPlainObject(schema.properties)) return;
  schema.properties.status = status;
  forgetSchemaTypes(schema);
}

/**
 * The SimpleSchema field a path into the schema it generated is under: the names that follow
 * `properties`, up to the first node SimpleSchema writes on one line (an array's items, a map's
 * values, a default).
 */
function simpleSchemaFieldOf(path: readonly string[]): string[] {
  const field: string[] = [];
  for (let i = 0; i + 1 < path.length && path[i] === 'properties'; i += 2) {
    field.push(path[i + 1] as string);
  }
  return field;
}

function toGraphExpression(
  source: string,
  location: string,
  references: readonly string[],
  compiled: CompiledGraphExpression,
  schemaOf: VariableSchemas,
): GraphExpression {
  return {
    source,
    location,
    references,
    ...(compiled.usesOmit ? { omits: true } : {}),
    evaluate: (scope) => compiled.evaluate(scope, schemaOf),
  };
}

/**
 * The schemas an RGD's expressions read their variables by, as kro's runtime wraps them
 * (`UnstructuredToVal` with each node's schema): `schema` by the instance's type without its
 * status (kro strips it), each resource id by its kind's (a list of them for a forEach or
 * external collection), looked up when an expression runs (every kind is known by then).
 */
function variableSchemas(
  instance: ResourceDefinition,
  kindOf: ReadonlyMap<string, { definition: ResourceDefinition; list: boolean }>,
): VariableSchemas {
  let instanceSchema: SchemaNode | undefined;
  const lists = new Map<string, SchemaNode>();
  return (name) => {
    if (name === 'schema') {
      instanceSchema ??= withoutStatus(instance.schema);
      return instanceSchema;
    }
    const kind = kindOf.get(name);
    const schema = kind?.definition.schema;
    if (schema === undefined || kind?.list !== true) return schema;
    let list = lists.get(name);
    if (list?.items !== schema) {
      list = { type: 'array', items: schema };
      lists.set(name, list);
    }
    return list;
  };
}

/** An object schema without its `status` property. */
function withoutStatus(schema: JsonSchema | undefined): SchemaNode | undefined {
  if (schema === undefined || !isPlainObject(schema.properties)) return schema;
  const properties = Object.entries(schema.properties).filter(([name]) => name !== 'status');
  return { ...schema, properties: Object.fromEntries(properties) };
}

/** The names a forEach declares, well-formed or not. */
function iteratorNames(forEach: unknown): string[] {
  if (!Array.isArray(forEach)) return [];
  return forEach.flatMap((d) => (isPlainObject(d) ? Object.keys(d) : []));
}

/**
 * Where the first occurrence of an expression's text up to the token a CEL error names
 * (`1:18: ...`, line 1) starts in the file, and how many columns that text spans; `undefined`
 * for an error on a later line of the expression, or that names no position.
 */
function tokenLocation(
  report: DocumentReport,
  pointer: string,
  source: string,
  error: string,
): { start: SourceLocation; columns: number } | undefined {
  const position = /^1:(\d+):/.exec(error);
  if (position === null) return undefined;
  const prefix = `\${${source.slice(0, Number(position[1]) - 1)}`;
  if (prefix.includes('\n')) return undefined;
  const start = report.textLocation(pointer, prefix, 0);
  // Text not found is located at the scalar's start: the same text less its `$` found one
  // column on says the file holds it as written.
  const next = report.textLocation(pointer, prefix.slice(1), 0);
  if (next.line !== start.line || next.col !== start.col + 1) return undefined;
  return { start, columns: prefix.length };
}

/** A key of an externalRef's metadata (`name`, `namespace`, `selector`) written beside `metadata`. */
function misplacedMetadataKey(externalRef: Record<string, unknown>): string | undefined {
  return ['name', 'namespace', 'selector'].find((key) => key in externalRef);
}

/** The strings directly under a list or mapping (conditions, forEach entries), with their paths. */
function stringsOf(root: unknown): { path: (string | number)[]; text: string }[] {
  const entries: [string | number, unknown][] = Array.isArray(root)
    ? [...root.entries()]
    : isPlainObject(root)
      ? Object.entries(root)
      : [];
  return entries.flatMap(([key, text]) =>
    typeof text === 'string' ? [{ path: [key], text }] : [],
  );
}

/**
 * Why `omit()` may not be where it is, as kro refuses it: outside a resource template
 * (`context`), in a string template, or in `metadata.name` (without a name there is no
 * resource); `undefined` where it may be.
 */
function whereOmitIsRefused(
  context: string | undefined,
  standalone: boolean,
  path: readonly (string | number)[],
): string | undefined {
  if (context !== undefined) {
    return `can only be used in resource template expressions, not in ${context}`;
  }
  if (!standalone) {
    return 'can only be a whole field\'s value ("${...}"), not part of a string template';
  }
  if (path.length === 2 && path[0] === 'metadata' && path[1] === 'name') {
    return 'cannot be used in metadata.name: the field is required and must resolve to a value';
  }
  return undefined;
}

/** An expression that is a plain field path: checked against schemas by {@link checkFieldTypes}. */
interface FieldCheck extends ExpressionCheck {
  readonly field: { readonly root: string; readonly path: readonly string[] };
}

/** The context of the entries of `spec.schema.status.conditions`: kro's custom conditions. */
const STATUS_CONDITIONS = 'status conditions';

/** The type of the value of each kind of expression that is not a template field. */
const CONTEXT_TYPES: Readonly<Record<string, string>> = {
  includeWhen: 'boolean',
  readyWhen: 'boolean',
  forEach: 'array',
};

/**
 * The problem of a plain field path, against the schema of what it reads (the instance's, or
 * the kind of the resource it names): a field that schema cannot have (`rgd-unknown-field`), or
 * a value of its field's CEL type that does not fit where it goes (`rgd-type-mismatch`, as for
 * every other expression: `placementProblem`).
 */
function checkFieldTypes(
  check: FieldCheck,
  instance: ResourceDefinition,
  kindOf: ReadonlyMap<string, { definition: ResourceDefinition; list: boolean; external: boolean }>,
): { code: FindingCode; message: string } | undefined {
  const { root, path } = check.field;
  const read = root === 'schema' ? { definition: instance, list: false } : kindOf.get(root);
  if (read === undefined || read.list) return undefined;
  const found = lookupField(read.definition.schema, path);
  if (found.state === 'missing') {
    const missing = path[found.index] ?? '';
    const guess = didYouMean(missing, found.known);
    const at = path.slice(0, found.index + 1).join('.');
    return {
      code: 'rgd-unknown-field',
      message: `\${${check.source}} reads ${at}, which ${root === 'schema' ? `the instances of ${instance.type}` : `${root} (${read.definition.type})`} cannot have${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}: its fields there are ${found.known.join(', ')}`,
    };
  }
  if (found.state === 'not-an-object') {
    // cel-go's checker: "type 'string' does not support field selection".
    const at = path.slice(0, found.index).join('.');
    return {
      code: 'rgd-type-mismatch',
      message: `\${${check.source}} does not type-check: type '${formatCelType(celTypeOfSchema(found.schema))}' does not support field selection (${root}.${at} selects .${path[found.index] ?? ''})`,
    };
  }
  if (found.state !== 'found') return undefined;
  const message = placementProblem(check, celTypeOfSchema(found.schema), kindOf);
  return message === undefined ? undefined : { code: 'rgd-type-mismatch', message };
}

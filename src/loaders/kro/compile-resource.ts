/**
 * One resource of an RGD (`spec.resources[i]`) compiled into a node of its graph: its template
 * (or externalRef) and the expressions in it, its forEach, includeWhen and readyWhen, the
 * resources it references (its dependencies), and its kind, resolved among the load's kinds and
 * recorded for the type checks that follow; refused, as kro refuses it, when it is not a resource
 * kro can build.
 */

import type { GraphExpression, TemplateField } from '../../controllers/resource-graph.js';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import { formatLocation } from '../finding.js';
import { jsonPointer } from '../json-pointer.js';
import { builtinReleaseOf } from '../kubernetes/builtin-kinds.js';
import { splitApiVersion } from '../kubernetes/kubernetes-shape.js';
import { isPlainObject } from '../manifest-document.js';
import { locator } from '../template-locator.js';
import { iteratorsMissingFromIdentity } from './collection-identity.js';
import { compileStrings } from './compile-expressions.js';
import { compileForEach, iteratorNames, type ForEachIterator } from './for-each-iterators.js';
import { fail, type GraphCompilation } from './graph-compilation.js';
import { builtinRead, outputAdmission } from './output-admission.js';
import { isRgdKind } from './rgd-instance-type.js';
import { compileConditions } from './standalone-expressions.js';
import { externalRefMetadataProblem, templateConstraintProblems } from './template-constraints.js';
import { dotted, templateLiteralProblems } from './template-literals.js';

/** What a resource makes its objects of: its template, or the externalRef it reads. */
interface ResourceTemplate {
  readonly template: Record<string, unknown>;
  readonly templateKey: 'template' | 'externalRef';
  readonly external: boolean;
  /** A forEach resource. */
  readonly collection: boolean;
  /** An externalRef by selector: a list of what it selects. */
  readonly externalCollection: boolean;
}

/** The expressions of a resource, compiled (`undefined`: refused), and what they reference. */
interface ResourceExpressions {
  readonly forEach: ForEachIterator[] | undefined;
  readonly fields: TemplateField[] | undefined;
  readonly includeWhen: GraphExpression[] | undefined;
  readonly readyWhen: GraphExpression[] | undefined;
  /** The ids of the resources referenced. */
  readonly into: Set<string>;
}

/** The kind a template names, found among the load's kinds. */
interface TemplateKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly output: ResourceDefinition;
}

/** Compiles the resource at `spec.resources[i]` (refused for its id: skipped) into `c.nodes`. */
export function compileResource(c: GraphCompilation, resource: unknown, i: number): void {
  const id = c.ids[i];
  if (!isPlainObject(resource) || id === undefined || id === '') return;
  const at: (string | number)[] = ['spec', 'resources', i];
  const source = resourceTemplate(c, resource, id, at);
  if (source === undefined) return;
  const { template, templateKey, external, externalCollection } = source;
  const expressions = compileResourceExpressions(c, resource, id, at, source);
  const { forEach, fields, includeWhen, readyWhen, into } = expressions;
  const found = templateKind(c, id, at, source);
  if (found === undefined) return;
  const { output } = found;
  c.kindOf.set(id, { definition: output, list: source.collection || externalCollection, external });
  const namespaced = output.kubernetes?.namespaced !== false;
  const problems = templateProblems(c, id, at, source, found, fields, namespaced);
  if (
    problems > 0 ||
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
      c,
      'rgd-bad-resource',
      [...at, 'forEach', forEach.findIndex((d) => d.name === missing[0])],
      `resource ${id}: all forEach dimensions must be used to produce a unique resource identity (metadata.name${namespaced ? ' or metadata.namespace' : ''}), as kro requires; missing: ${missing.join(', ')}`,
    );
    return;
  }
  c.nodes.push({
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
    ...(isRgdKind(output) ? { nested: true } : {}),
    dependencies: [...into].sort((a, b) => (c.position.get(a) ?? 0) - (c.position.get(b) ?? 0)),
    admit: outputAdmission(output, c.compiler, c.options),
    ...(external && builtinReleaseOf(output) !== undefined ? { read: builtinRead(output) } : {}),
    locate: locator(c.report, [...at, templateKey]),
  });
}

/** The template (or externalRef) of a resource; `undefined` when it is refused. */
function resourceTemplate(
  c: GraphCompilation,
  resource: Record<string, unknown>,
  id: string,
  at: (string | number)[],
): ResourceTemplate | undefined {
  const external = resource.externalRef !== undefined;
  const collection = Array.isArray(resource.forEach) && resource.forEach.length > 0;
  if (external && (resource.template !== undefined || collection)) {
    fail(
      c,
      'rgd-bad-resource',
      at,
      `resource ${id}: an externalRef has no template or forEach: it reads an existing resource`,
    );
    return undefined;
  }
  const template = external ? resource.externalRef : resource.template;
  const templateKey = external ? 'externalRef' : 'template';
  if (!isPlainObject(template)) {
    fail(c, 'rgd-bad-resource', [...at, templateKey], `resource ${id} needs a template`);
    return undefined;
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
        c,
        'rgd-bad-resource',
        [...at, 'externalRef', ...(misplaced === undefined ? problem.path : [misplaced])],
        misplaced === undefined
          ? `resource ${id}: ${problem.message}`
          : `resource ${id}: ${problem.message}: this one has ${misplaced} beside metadata, where kro's externalRef has no such field: indent it under metadata`,
      );
      return undefined;
    }
  }
  return { template, templateKey, external, collection, externalCollection };
}

/**
 * Compiles the expressions of a resource: its forEach, its template's strings (which see the
 * iterators), its includeWhen and its readyWhen (which sees only the resource itself); what they
 * reference are its dependencies (`c.deps`).
 */
function compileResourceExpressions(
  c: GraphCompilation,
  resource: Record<string, unknown>,
  id: string,
  at: (string | number)[],
  { template, templateKey, collection, externalCollection }: ResourceTemplate,
): ResourceExpressions {
  const into = new Set<string>();
  c.owner.id = id;
  c.owner.iterators = [];
  c.owner.forEach = new Set(iteratorNames(resource.forEach));
  const forEach = compileForEach(c, resource.forEach, [...at, 'forEach'], into);
  c.owner.forEach = new Set();
  // A refused forEach still declares its iterators: their uses are not unknown references.
  const iterators = new Set(forEach?.map((d) => d.name) ?? iteratorNames(resource.forEach));
  c.owner.iterators = (forEach ?? []).map((d) => ({ name: d.name, list: d.check }));
  const fields = compileStrings(c, template, [...at, templateKey], iterators, into);
  c.owner.iterators = [];
  const includeWhen = compileConditions(
    c,
    resource.includeWhen,
    [...at, 'includeWhen'],
    new Set(),
    into,
    'includeWhen',
  );
  const readyWhen = compileConditions(
    c,
    resource.readyWhen,
    [...at, 'readyWhen'],
    new Set([collection || externalCollection ? 'each' : id]),
    new Set(),
    'readyWhen',
  );
  c.deps.set(id, into);
  return { forEach, fields, includeWhen, readyWhen, into };
}

/** The kind a resource's template names (literally), among the load's kinds; else refused. */
function templateKind(
  c: GraphCompilation,
  id: string,
  at: (string | number)[],
  { template, templateKey, external }: ResourceTemplate,
): TemplateKind | undefined {
  const apiVersion = template.apiVersion;
  const kind = template.kind;
  if (
    typeof apiVersion !== 'string' ||
    typeof kind !== 'string' ||
    apiVersion.includes('${') ||
    kind.includes('${')
  ) {
    fail(
      c,
      'rgd-bad-resource',
      [...at, templateKey],
      `resource ${id}: the ${templateKey} needs a literal apiVersion and kind`,
    );
    return undefined;
  }
  if (!external && !isPlainObject(template.metadata)) {
    // kro's validateKubernetesObjectStructure (pkg/graph/validation.go).
    fail(
      c,
      'rgd-bad-resource',
      [...at, templateKey],
      `resource ${id} is not a valid Kubernetes object: ${template.metadata === undefined ? 'metadata field not found' : 'metadata field is not a map'}`,
    );
    return undefined;
  }
  const output = c.kinds.find({ ...splitApiVersion(apiVersion), kind });
  if (output === undefined) {
    const invalid = c.kinds.invalidAt(splitApiVersion(apiVersion).group, kind);
    fail(
      c,
      'rgd-unknown-kind',
      [...at, templateKey, 'kind'],
      invalid === undefined
        ? `resource ${id}: no CRD or built-in kind defines ${apiVersion} ${kind}`
        : `resource ${id}: kind ${kind} of ${apiVersion} is not defined: its ${invalid.what} at ${formatLocation(invalid.at)} is invalid${invalid.what === 'ResourceGraphDefinition' ? ' (kro creates the CRD of an RGD only once its graph builds)' : ''}`,
    );
    return undefined;
  }
  return { apiVersion, kind, output };
}

/**
 * Refuses what kro refuses of a template of a known kind: its constraints
 * (`template-constraints.ts`), expressions in a CRD's template outside its metadata, literals
 * that do not fit the kind's schema; how many problems there were.
 */
function templateProblems(
  c: GraphCompilation,
  id: string,
  at: (string | number)[],
  { template, templateKey, external, externalCollection }: ResourceTemplate,
  { apiVersion, kind, output }: TemplateKind,
  fields: readonly TemplateField[] | undefined,
  namespaced: boolean,
): number {
  const constraints = templateConstraintProblems(
    id,
    template,
    namespaced,
    c.definition.kubernetes?.namespaced !== false,
    externalCollection,
  );
  for (const problem of constraints) {
    fail(c, 'rgd-bad-resource', [...at, templateKey, ...problem.path], problem.message);
  }
  // kro reads a CRD's template without its schema, and takes expressions only in its metadata
  // (builder.go: "CEL expressions in CRDs are only supported for metadata fields").
  const crd = apiVersion === 'apiextensions.k8s.io/v1' && kind === 'CustomResourceDefinition';
  const crdExpressions = crd
    ? (fields ?? []).filter((f) => f.path[0] !== 'metadata' || f.path.length < 2)
    : [];
  for (const field of crdExpressions) {
    fail(
      c,
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
    c.failed = true;
    c.report.add(
      problem.code,
      jsonPointer([...at, templateKey, ...problem.path]),
      `resource ${id}: ${problem.message}`,
      problem.key === true ? { part: 'key' } : {},
    );
  }
  return constraints.length + literals.length + crdExpressions.length;
}

/** A key of an externalRef's metadata (`name`, `namespace`, `selector`) written beside `metadata`. */
function misplacedMetadataKey(externalRef: Record<string, unknown>): string | undefined {
  return ['name', 'namespace', 'selector'].find((key) => key in externalRef);
}

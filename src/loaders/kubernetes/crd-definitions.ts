/**
 * CustomResourceDefinitions (`apiextensions.k8s.io/v1`) as cosi definitions: one per served
 * version, named after the CRD as COSI's naming rules allow.
 *
 * - The type of the storage version is `<Plural>.<group>`: the CRD's `names.plural` in CamelCase
 *   (cased as `names.kind`, so `certificates` of kind `Certificate` is `Certificates`,
 *   `networkpolicies` of `NetworkPolicy` is `NetworkPolicies`) and the group. Its id, the type in
 *   lower case, is the CRD's name: `certificates.cert-manager.io`.
 * - Another served version is `<Plural>.<version>.<group>` (kubectl's fully qualified
 *   `certificates.v1alpha2.cert-manager.io`), without aliases, so that short names stay
 *   unambiguous.
 * - Aliases of the storage version: `names.shortNames`, `names.singular` and `names.kind` (lower
 *   case), beside COSI's derived ones.
 * - The version's `openAPIV3Schema` is the schema, kept as it is (with its `x-kubernetes-*`
 *   keywords, CEL rules included); it checks the whole document, defaults applied first.
 * - `additionalPrinterColumns` are print columns, any JSONPath the API server takes:
 *   `.spec.secretName` becomes `{.spec.secretName}`, read from the resource's spec, which holds
 *   the document's top-level fields (columns on `.metadata` are left out: cosi's table prints the
 *   namespace and id).
 * - `scope: Cluster` types print no namespace; their resources live in the namespace `default`.
 */

import {
  createDefinition,
  DefinitionError,
  type JsonSchema,
  type KubernetesKind,
  type PrintColumn,
  type ResourceDefinition,
} from '../../engine/resource/definition.js';
import type { CelRules } from '../cel/cel-rule-engine.js';
import type { PreexistingExpressions } from '../cel/new-rules.js';
import { checkDefinitionSchema, type SchemaRules } from '../definition-schema.js';
import type { DocumentReport } from '../document-report.js';
import { jsonPointer } from '../json-pointer.js';
import { shownPrinterColumn } from '../print-column-path.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import { findStructuralProblems } from './structural-check.js';
import { findInvalidDefaults } from './invalid-defaults.js';
import { findListTypeProblems } from './crd-list-types.js';
import {
  keepsPreserveUnknownFields,
  preserveUnknownFieldsProblems,
} from './crd-preserve-unknown-fields.js';
import { preexistingExpressions } from './crd-expressions.js';
import { decodedSchema } from './schema-decoding.js';
import { crdConversionProblems } from './crd-conversion.js';
import { crdScaleProblems, scaleOf } from './crd-scale.js';
import { selectableFieldProblems } from './crd-selectable-fields.js';
import { deprecationWarningOf, deprecationWarningProblems } from './crd-deprecation.js';
import { deferCheck, extendDeferredCheck } from './deferred-check.js';
import type { Finding } from '../finding.js';
import { CRD_SCHEMA, type CrdSpec, type CrdVersionSpec } from './crd-shape.js';
import { fitsTheApiServer } from './crd-request-size.js';
import { API_APPROVED_ANNOTATION, apiApprovalProblem } from './crd-api-approval.js';
import { DNS_1035_LABEL, nameLabels } from './crd-names.js';

/** The `apiVersion` and `kind` of the documents this module reads. */
export const CRD_API_VERSION = 'apiextensions.k8s.io/v1';
export const CRD_KIND = 'CustomResourceDefinition';

/** One served version of a CRD, as a definition. */
export interface CrdVersion {
  readonly definition: ResourceDefinition;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** How {@link readCrd} reads a CRD. */
export interface CrdReadOptions {
  /** Put off the schema and rule checks until a document uses the kind (`deferred-check.ts`). */
  readonly deferSchemaCheck?: boolean;
  /** The CEL rules of the run's Kubernetes release, asked only for a schema that has rules. */
  readonly celRules: () => CelRules;
  /**
   * The run's Kubernetes release (its minor), whose checks a `default` must pass (a format a
   * release added: `invalid-defaults.ts`); the newest when omitted.
   */
  readonly kubernetesMinor?: number;
  /**
   * The stored CRD of the same name (the previous revision's, `--previous`): this CRD is an
   * update of it. Omitted: a create.
   */
  readonly stored?: Readonly<Record<string, unknown>>;
}

/** Whether a Kubernetes-shaped document is a CRD. */
export function isCrdDocument(value: Record<string, unknown>): boolean {
  return value.apiVersion === CRD_API_VERSION && value.kind === CRD_KIND;
}

/**
 * The definitions of a CRD document's served versions, each problem reported at its node: the
 * CRD's shape, its name (`<plural>.<group>`, as the API server requires), a CRD with no served
 * version or not exactly one storage version, names against COSI's rules, a schema that is
 * invalid or not structural, a malformed printer column, a size no cluster takes. Empty when the CRD has an error.
 * Past its shape (a value outside an enum is no obstacle), everything is reported in one run,
 * as the API server's one error list holds it: a definition-level error does not hide the
 * schemas' errors, nor one version's errors another's.
 */
export function readCrd(
  value: Record<string, unknown>,
  name: string | undefined,
  report: DocumentReport,
  compiler: SchemaCompiler,
  options: CrdReadOptions,
): CrdVersion[] {
  if (!fitsTheApiServer(value, report)) return [];
  const problems = compiler.compile(CRD_SCHEMA).validate?.(value) ?? [];
  for (const problem of problems) {
    report.add('invalid-definition', problem.path, problem.message, {
      part: problem.part,
      rule: 'crd-shape',
    });
  }
  // A value outside an enum (a scope, a column's type or format) is one error among the rest,
  // as the API server's validation reports it: the CRD reads on, so that every other error
  // (the other versions' schemas included) is reported in the same run. Any other problem of
  // shape leaves nothing to read.
  if (problems.some((problem) => problem.keyword !== 'enum')) return [];
  const spec = value.spec as CrdSpec;
  const refuse = (pointer: string, rule: string, message: string): void =>
    report.add('invalid-definition', pointer, message, { rule });

  const expectedName = `${spec.names.plural}.${spec.group}`;
  if (name !== undefined && name !== expectedName) {
    refuse(
      '/metadata/name',
      'crd-name',
      `the name of a CustomResourceDefinition is <plural>.<group>: ${JSON.stringify(expectedName)}, not ${JSON.stringify(name)}`,
    );
  }
  // As the API server: a DNS-1123 subdomain with a dot, which keeps CRDs out of the built-in
  // groups without one (`apps`, `batch`, `policy`).
  if (
    spec.group.length > 253 ||
    !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(spec.group)
  ) {
    refuse(
      '/spec/group',
      'crd-group',
      `the group ${JSON.stringify(spec.group)} must be a DNS-1123 subdomain (lower-case letters, digits, "-" and ".")`,
    );
  } else if (!spec.group.includes('.')) {
    refuse(
      '/spec/group',
      'crd-group',
      `the group ${JSON.stringify(spec.group)} should be a domain with at least one dot (example.org): a group without one is Kubernetes' own (apps, batch)`,
    );
  }
  const approval = apiApprovalProblem(spec.group, value.metadata);
  if (approval !== undefined) {
    refuse(
      `/metadata/annotations/${API_APPROVED_ANNOTATION.replace('/', '~1')}`,
      'api-approval',
      approval,
    );
  }
  const names = spec.versions.map((v) => v.name);
  names.forEach((version, i) => {
    if (names.indexOf(version) !== i) {
      refuse(
        jsonPointer(['spec', 'versions', i, 'name']),
        'duplicate-version',
        `the version ${JSON.stringify(version)} is listed twice: version names must be unique`,
      );
    } else if (!/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(version)) {
      refuse(
        jsonPointer(['spec', 'versions', i, 'name']),
        'version-name',
        `the version ${JSON.stringify(version)} must be a DNS-1035 label (lower-case letters, digits and "-", starting with a letter: v1, v1beta2)`,
      );
    }
  });
  for (const [pointer, name, what] of nameLabels(spec.names)) {
    const kind = what.endsWith('kind');
    if (!DNS_1035_LABEL.test(kind ? name.toLowerCase() : name)) {
      const letters = kind ? 'once lower-cased (letters' : '(lower-case letters';
      refuse(
        pointer,
        'crd-names',
        `the ${what} ${JSON.stringify(name)} must be a DNS-1035 label ${letters}, digits and "-", starting with a letter, at most 63)`,
      );
    }
  }
  for (const { pointer, message } of preserveUnknownFieldsProblems(
    value.spec as Record<string, unknown>,
    options.stored,
  )) {
    refuse(pointer, 'preserve-unknown-fields', message);
  }
  for (const { pointer, message } of crdConversionProblems(value.spec as Record<string, unknown>)) {
    refuse(pointer, 'crd-conversion', message);
  }
  for (const { pointer, message } of crdScaleProblems(value.spec as Record<string, unknown>)) {
    refuse(pointer, 'crd-scale', message);
  }
  for (const { pointer, message } of deprecationWarningProblems(
    value.spec as Record<string, unknown>,
  )) {
    refuse(pointer, 'deprecation-warning', message);
  }
  for (const { pointer, message } of selectableFieldProblems(
    value.spec as Record<string, unknown>,
  )) {
    refuse(pointer, 'selectable-fields', message);
  }
  const served = spec.versions.filter((v) => v.served);
  if (served.length === 0) {
    refuse(
      '/spec/versions',
      'no-served-version',
      `the CustomResourceDefinition ${expectedName} serves no version: set served: true on one`,
    );
  }
  const storage = spec.versions.filter((v) => v.storage);
  if (storage.length !== 1) {
    refuse(
      '/spec/versions',
      'storage-version',
      `the CustomResourceDefinition ${expectedName} must have exactly one storage version, not ${storage.length}`,
    );
  }
  // The schemas are checked even so: the API server's one error list holds their errors too.
  const refused = report.hasErrors;

  const plural = camelPlural(spec.names.plural, spec.names.kind);
  const versions: CrdVersion[] = [];
  let failed = false;
  const unserved: number[] = [];
  for (const [i, version] of spec.versions.entries()) {
    if (!version.served) {
      unserved.push(i);
      continue;
    }
    const at = ['spec', 'versions', i];
    const definition = versionDefinition(
      spec,
      version,
      plural,
      at,
      report,
      compiler,
      options,
      refused,
    );
    if (definition === undefined) failed = true;
    else
      versions.push({
        definition,
        group: spec.group,
        version: version.name,
        kind: spec.names.kind,
      });
  }
  // A version that is not served defines no kind, but the API server checks its schema (and
  // columns) as any version's: its errors refuse the CRD too.
  const checkUnserved = (into: DocumentReport): boolean =>
    unserved
      .map((i) =>
        checkUnservedVersion(
          spec,
          spec.versions[i] as CrdVersionSpec,
          plural,
          i,
          into,
          compiler,
          options,
        ),
      )
      .every(Boolean);
  const first = versions[0]?.definition;
  if (unserved.length === 0) {
    // Nothing more to check.
  } else if (options.deferSchemaCheck === true && !failed && first !== undefined) {
    // Put off with the first served version's check: reported when its kind is used.
    extendDeferredCheck(first, () => {
      const findings: Finding[] = [];
      checkUnserved(report.withFindings(findings));
      return findings;
    });
  } else if (!checkUnserved(report)) {
    failed = true;
  }
  // One broken version leaves the whole CRD out, as the API server refuses it whole.
  return failed ? [] : versions;
}

/**
 * Checks a version that is not served: its schema, which it must have, as a served version's,
 * and its printer columns' paths. False when something is wrong.
 */
function checkUnservedVersion(
  spec: CrdSpec,
  version: CrdVersionSpec,
  plural: string,
  i: number,
  report: DocumentReport,
  compiler: SchemaCompiler,
  options: CrdReadOptions,
): boolean {
  const at = ['spec', 'versions', i];
  const columnsFine = refusedColumns(version, at, report) === 0;
  const written = version.schema?.openAPIV3Schema;
  const schema = written === undefined ? undefined : decodedSchema(written);
  if (schema === undefined) {
    reportMissingSchema(version, at, report);
    return false;
  }
  const type = version.storage
    ? `${plural}.${spec.group}`
    : `${plural}.${version.name}.${spec.group}`;
  const schemaFine = checkVersionSchema(
    schema,
    type,
    [...at, 'schema', 'openAPIV3Schema'],
    report,
    compiler,
    options,
  );
  return columnsFine && schemaFine;
}

function reportMissingSchema(
  version: CrdVersionSpec,
  at: (string | number)[],
  report: DocumentReport,
): void {
  report.add(
    'invalid-definition',
    jsonPointer(at),
    `version ${version.name} has no schema.openAPIV3Schema: a CustomResourceDefinition in apiextensions.k8s.io/v1 needs one`,
    { rule: 'missing-schema' },
  );
}

/** A version's scale subresource, as a definition's `kubernetes.scale`. */
function scaleField(version: CrdVersionSpec): { scale?: NonNullable<KubernetesKind['scale']> } {
  const scale = scaleOf(version as unknown as Record<string, unknown>);
  return scale === undefined ? {} : { scale };
}

/** The warning the API server returns at a deprecated version, as `kubernetes.deprecationWarning`. */
function deprecationField(spec: CrdSpec, name: string): { deprecationWarning?: string } {
  const warning = deprecationWarningOf(spec as unknown as Record<string, unknown>, name);
  return warning === undefined ? {} : { deprecationWarning: warning };
}

/** Whether a version's `subresources.status` is there (an object: `status: {}`). */
function isStatusSubresource(status: unknown): boolean {
  return typeof status === 'object' && status !== null;
}

/**
 * A served version's definition, its problems reported. `refused` says the CRD already has a
 * definition-level error (a version name, the storage versions): no definition is made then,
 * but the schema is still checked, so that one run reports everything the API server's single
 * error list holds. Undefined when the version (or the CRD) is refused.
 */
function versionDefinition(
  spec: CrdSpec,
  version: CrdVersionSpec,
  plural: string,
  at: (string | number)[],
  report: DocumentReport,
  compiler: SchemaCompiler,
  options: CrdReadOptions,
  refused: boolean,
): ResourceDefinition | undefined {
  const written = version.schema?.openAPIV3Schema;
  const schema = written === undefined ? undefined : decodedSchema(written);
  if (schema === undefined) {
    reportMissingSchema(version, at, report);
    return undefined;
  }
  const type = version.storage
    ? `${plural}.${spec.group}`
    : `${plural}.${version.name}.${spec.group}`;
  const keepsUnknownFields = keepsPreserveUnknownFields(spec, options.stored);
  const check = (into: DocumentReport): boolean =>
    checkVersionSchema(schema, type, [...at, 'schema', 'openAPIV3Schema'], into, compiler, options);
  const columns = printColumns(version, at, report);
  if (refused || columns === undefined) {
    check(report);
    return undefined;
  }
  let definition: ResourceDefinition;
  try {
    definition = createDefinition({
      type,
      displayType: spec.names.kind,
      ...(version.storage
        ? {
            aliases: [
              ...(spec.names.shortNames ?? []),
              ...(spec.names.singular ? [spec.names.singular] : []),
              spec.names.kind,
            ],
          }
        : { skipAutomaticAliases: true }),
      printColumns: columns,
      schema,
      kubernetes: {
        apiVersion: `${spec.group}/${version.name}`,
        kind: spec.names.kind,
        namespaced: spec.scope === 'Namespaced',
        ...(isStatusSubresource(version.subresources?.status) ? { statusSubresource: true } : {}),
        ...scaleField(version),
        ...deprecationField(spec, version.name),
        ...(keepsUnknownFields ? { keepsUnknownFields: true } : {}),
      },
    });
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    report.add(
      'invalid-definition',
      error.rule === 'invalid-suffix' ? '/spec/group' : '/spec/names/plural',
      error.message,
      { rule: error.rule },
    );
    check(report);
    return undefined;
  }
  if (options.deferSchemaCheck === true) {
    // Compiling a schema and its rules is most of a CRD's cost: only a used one pays it.
    deferCheck(definition, () => {
      const findings: Finding[] = [];
      check(report.withFindings(findings));
      return findings;
    });
    return definition;
  }
  return check(report) ? definition : undefined;
}

/**
 * Reports what is wrong with a version's schema (JSON Schema, structural rules, list types,
 * defaults, CEL rules) at its node in the CRD; false when something was.
 */
function checkVersionSchema(
  schema: JsonSchema,
  type: string,
  schemaAt: (string | number)[],
  report: DocumentReport,
  compiler: SchemaCompiler,
  options: CrdReadOptions,
): boolean {
  return checkDefinitionSchema(
    schema,
    type,
    jsonPointer(schemaAt),
    report,
    compiler,
    () => asNewRules(options.celRules(), storedExpressions(options)),
    [
      ...findStructuralProblems(schema),
      ...findListTypeProblems(schema),
      // Only a schema that compiles has defaults worth checking against it.
      ...(compiler.compile(schema).problems.length === 0
        ? findInvalidDefaults(schema, compiler, options.kubernetesMinor)
        : []),
    ],
  );
}

/**
 * A CRD's rules as the API server compiles those of a CRD being created or changed: each also
 * as a new rule, with the libraries of the release before the run's (`cel/new-rules.ts`),
 * unless the stored CRD (`preexisting`) has the same expression.
 */
function asNewRules(rules: CelRules, preexisting: PreexistingExpressions | undefined): SchemaRules {
  return {
    compileRules: (schema) => {
      const compiled = rules.compileRules(schema);
      const fresh = rules.newRuleProblems(schema, preexisting);
      return fresh.length === 0 ? compiled : { problems: [...compiled.problems, ...fresh] };
    },
    evaluateRules: (schema, value) => rules.evaluateRules(schema, value),
  };
}

/** The expressions of the stored CRD, when this read is an update of one. */
function storedExpressions(options: CrdReadOptions): PreexistingExpressions | undefined {
  return options.stored === undefined ? undefined : preexistingExpressions(options.stored);
}

/**
 * The printer columns cosi can show, as print columns (undefined when one is refused). A `jsonPath` must start with `.`, as the
 * API server requires; past that it accepts any, and one that does not parse as client-go's
 * JSONPath only falls back to fewer columns there: here it is left out with an
 * `ignored-print-column` warning. Columns on `.metadata` are left out too: cosi's table prints
 * the namespace and id, and a resource's spec (what columns read) holds no metadata.
 */
function printColumns(
  version: CrdVersionSpec,
  at: (string | number)[],
  report: DocumentReport,
): PrintColumn[] | undefined {
  if (refusedColumns(version, at, report) > 0) return undefined;
  const columns: PrintColumn[] = [];
  for (const [i, column] of (version.additionalPrinterColumns ?? []).entries()) {
    const pointer = jsonPointer([...at, 'additionalPrinterColumns', i, 'jsonPath']);
    const shown = shownPrinterColumn(
      column.name,
      column.jsonPath,
      (message) => report.add('ignored-print-column', pointer, message),
      column.priority,
    );
    if (shown !== undefined) columns.push(shown);
  }
  return columns;
}

/** Reports the printer columns the API server refuses (a jsonPath not starting with "."); how many. */
function refusedColumns(
  version: CrdVersionSpec,
  at: (string | number)[],
  report: DocumentReport,
): number {
  let refused = 0;
  for (const [i, column] of (version.additionalPrinterColumns ?? []).entries()) {
    const path = column.jsonPath;
    if (path.startsWith('.')) continue;
    report.add(
      'invalid-definition',
      jsonPointer([...at, 'additionalPrinterColumns', i, 'jsonPath']),
      `the jsonPath ${JSON.stringify(path)} must be a JSONPath starting with "." (.spec.replicas)`,
      { rule: 'invalid-print-column' },
    );
    refused++;
  }
  return refused;
}

/**
 * A CRD's plural in CamelCase, cased as its kind as far as they agree: `certificates` of
 * `Certificate` is `Certificates`, `networkpolicies` of `NetworkPolicy` is `NetworkPolicies`.
 */
export function camelPlural(plural: string, kind: string): string {
  let common = 0;
  while (
    common < plural.length &&
    common < kind.length &&
    plural[common]?.toLowerCase() === kind[common]?.toLowerCase()
  ) {
    common++;
  }
  const head = common > 0 ? kind.slice(0, common) : (plural[0] ?? '');
  // A kind the API server takes in lower case (`foo`, DNS-1035 once lowered) still names a
  // CamelCase type.
  return (head[0]?.toUpperCase() ?? '') + head.slice(1) + plural.slice(common > 0 ? common : 1);
}

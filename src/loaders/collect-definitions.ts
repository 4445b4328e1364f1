/**
 * The first pass of a load: every document's header is read, and the
 * `ResourceDefinitions.meta.cosi.dev` documents of all files become the definitions that the
 * second pass (`load-resources.ts`) resolves types against.
 */

import {
  RESOURCE_DEFINITION_TYPE,
  resourceDefinitionDefinition,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { readDefinition } from './definition-document.js';
import { describeDocument, type ResourceDocument } from './resource-document.js';
import { DocumentReport } from './document-report.js';
import { definitionSite, recordDefinitionSite } from './definition-sites.js';
import { formatLocation, type Finding, type SourceLocation } from './finding.js';
import { isPlainObject, readManifestHeader, type ManifestHeader } from './manifest-document.js';
import type { ParsedManifest } from './parsed-manifest.js';
import type { PendingDocument } from './pending-document.js';
import type { SchemaCompiler } from './schema-compiler.js';
import type { PriorRecorder, PriorState } from './cel/prior-state.js';
import { isCrdDocument, readCrd } from './kubernetes/crd-definitions.js';
import { CrdNameClaims } from './kubernetes/crd-names.js';
import { BuiltinKinds } from './kubernetes/builtin-kinds.js';
import { lazyCelRules, type CelRuleEngine, type CelRules } from './cel/cel-rules.js';
import { releaseMinor, type KubernetesRelease } from './kubernetes/kubernetes-release.js';
import { KubernetesKinds, type SchemaKindSource } from './kubernetes/kubernetes-kinds.js';
import { isKubernetesList, listItems, listItemValues } from './kubernetes/kubernetes-list.js';
import { lazyAdmissionCel } from './kubernetes/admission-expressions.js';
import { isXrdDocument, xrdCrds } from './kubernetes/crossplane-xrd.js';
import {
  ConstraintCrdReport,
  constraintCrd,
  isConstraintTemplateDocument,
  templateExpressionProblems,
} from './kubernetes/gatekeeper-constraint-template.js';
import {
  groupKindOf,
  isKubernetesShaped,
  readKubernetesHeader,
} from './kubernetes/kubernetes-shape.js';
import { isTransformType, type TakenTransform } from './transform-type.js';

/** Definitions known before the manifests are read: the project config's. */
export interface GivenDefinitions {
  readonly definitions: readonly ResourceDefinition[];
  /** Their file, as findings name it (`cosi.config.ts`); empty when unknown. */
  readonly source: string;
  /** Definition id -> the file a given definition was read from (`--definitions`). */
  readonly files?: ReadonlyMap<string, string>;
  /**
   * The built-in kinds of the chosen Kubernetes release, for Kubernetes-shaped documents that
   * nothing given or declared defines; omitted: none.
   */
  readonly builtins?: BuiltinKinds;
  /** The kinds of `--schema-location`, for Kubernetes-shaped documents nothing else defines. */
  readonly schemaKinds?: SchemaKindSource;
  /**
   * Put off the schema and rule checks of CRDs until a document uses their kind (the CRDs of
   * `--definitions`; see `kubernetes/deferred-check.ts`).
   */
  readonly deferSchemaChecks?: boolean;
  /**
   * The same definition in two files is one, not a duplicate: files read for their definitions
   * alone (`--definitions`), where a vendored CRD is often kept twice (a chart's `crds/` and a
   * kustomize base). Two that differ are still a duplicate.
   */
  readonly identicalAreOne?: boolean;
  /**
   * The CEL rules of the load's Kubernetes release (see `lazyCelRules`): the environment the
   * rules of every definition and resource compile in, asked only for a schema that has rules.
   */
  readonly celRules: () => CelRules;
  /** Reads kro RGDs (`kro/read-resource-graphs.ts`), passed in: this pass sits below kro. */
  readonly resourceGraphs: ReadResourceGraphs;
  /**
   * Compiles the `Transforms.cosi.dev` documents (`transforms/transform-document.ts`), passed in
   * as the RGD reader is; without it they are taken out of the resources pass, not compiled.
   */
  readonly compileTransforms?: CompileTransforms;
  /** The previous revision (`--previous`): an update of a CRD it has is compared with it. */
  readonly previous?: PriorState;
  /** Loading a previous revision: its CRD documents are told to this recorder. */
  readonly recordPrior?: PriorRecorder;
}

/** Compiles a load's transform documents against its registry, reporting their findings. */
export type CompileTransforms = (
  taken: readonly TakenTransform[],
  registry: DefinitionRegistry,
  compiler: SchemaCompiler,
  given: GivenDefinitions,
) => void;

/**
 * Reads the RGDs of one load as their documents come: `take` answers whether a document is one
 * (false: it is not), `compileGraphs` compiles their graphs once every kind of the load is known
 * and returns every RGD document taken. `define` registers an RGD's type (false: a duplicate).
 */
export type ReadResourceGraphs = (
  compiler: SchemaCompiler,
  options: { readonly celRules: () => CelRules },
  define: (
    definition: ResourceDefinition,
    report: DocumentReport,
    /** Whether a known definition of its type is this same RGD's (its graph from this document). */
    sameAs?: (known: ResourceDefinition) => boolean,
  ) => boolean,
  /**
   * Told of an RGD kro would not build (so creates no CRD for): its group and kind, and the
   * definition `define` registered for it, if it did, to take back.
   */
  refuse?: (
    report: DocumentReport,
    kind: { readonly group: string; readonly kind: string },
    definition?: ResourceDefinition,
  ) => void,
) => {
  take(value: Record<string, unknown>, header: ManifestHeader, report: DocumentReport): boolean;
  compileGraphs(kinds: KubernetesKinds): { report: DocumentReport; header: ManifestHeader }[];
};

/** The options {@link givenDefinitions} reads (`LoadManifestsOptions` has them). */
export interface GivenDefinitionsOptions {
  readonly definitions?: readonly ResourceDefinition[];
  readonly definitionsSource?: string;
  readonly definitionFiles?: ReadonlyMap<string, string>;
  /** The release of the built-in kinds: default the newest stable; `null`: none. */
  readonly kubernetesVersion?: KubernetesRelease | null;
  /** The kinds of `--schema-location`. */
  readonly schemaKinds?: SchemaKindSource;
  readonly previous?: PriorState;
  readonly recordPrior?: PriorRecorder;
}

/**
 * What a load knows before it reads the manifests: the options' definitions, built-in kinds, the
 * CEL rules of its Kubernetes release (from `celRuleEngine`, else the loaded engine), and the
 * reader of RGDs.
 */
export function givenDefinitions(
  options: GivenDefinitionsOptions,
  resourceGraphs: ReadResourceGraphs,
  celRuleEngine?: () => CelRuleEngine,
  compileTransforms?: CompileTransforms,
): GivenDefinitions {
  const builtins =
    options.kubernetesVersion === null ? undefined : BuiltinKinds.of(options.kubernetesVersion);
  return {
    definitions: options.definitions ?? [],
    source: options.definitionsSource ?? '',
    ...(options.definitionFiles === undefined ? {} : { files: options.definitionFiles }),
    ...(builtins === undefined ? {} : { builtins }),
    ...(options.schemaKinds === undefined || options.schemaKinds.isEmpty
      ? {}
      : { schemaKinds: options.schemaKinds }),
    celRules: lazyCelRules(builtins?.release, celRuleEngine),
    resourceGraphs,
    ...(compileTransforms === undefined ? {} : { compileTransforms }),
    ...(options.previous === undefined ? {} : { previous: options.previous }),
    ...(options.recordPrior === undefined ? {} : { recordPrior: options.recordPrior }),
  };
}

/** What {@link collectDefinitions} returns. */
export interface CollectedDefinitions {
  /** The definitions declared in the manifests, in source order. */
  readonly definitions: ResourceDefinition[];
  /** cosi's definition type, the given definitions and the declared ones. */
  readonly registry: DefinitionRegistry;
  /** Definition documents left out for their findings, to point unknown types at. */
  readonly invalid: InvalidDefinitions;
  /** The definitions of Kubernetes kinds (from CRDs), for Kubernetes-shaped documents. */
  readonly kinds: KubernetesKinds;
  /** The other documents, in source order. */
  readonly pending: PendingDocument[];
  /** The definition documents, as the check report names them. */
  readonly documents: ResourceDocument[];
}

/** Every name of the definition type, lower-cased, as the registry resolves them. */
const DEFINITION_TYPE_NAMES = new Set([
  resourceDefinitionDefinition.id,
  ...resourceDefinitionDefinition.allAliases,
]);

/**
 * Reads the header of every document of every file, and takes the definition documents (by any
 * name of the definition type, such as `rd`) as definitions, so that a type may be used before
 * the file that defines it. A definition with an error finding, or of a type defined already
 * (in the manifests or among the given ones), is reported and left out. Findings, the files' own
 * parse findings first, go to `findings`.
 */
export function collectDefinitions(
  files: readonly ParsedManifest[],
  given: GivenDefinitions,
  compiler: SchemaCompiler,
  findings: Finding[],
): CollectedDefinitions {
  const definitions: ResourceDefinition[] = [];
  const pending: PendingDocument[] = [];
  const documents: ResourceDocument[] = [];
  const invalid = new InvalidDefinitions();
  const kinds = new KubernetesKinds(
    given.builtins,
    given.schemaKinds === undefined
      ? undefined
      : { kinds: given.schemaKinds, context: { compiler, celRules: given.celRules } },
  );
  const crdNames = new CrdNameClaims();
  /**
   * Definition id -> the definition taken and the document that defined it (`undefined`: given),
   * to report a duplicate there and tell the same CRD again from another.
   */
  const defined = new Map<
    string,
    { readonly definition: ResourceDefinition; readonly at: DocumentReport | undefined }
  >();
  /**
   * A `--definitions` CRD's served apiVersions, by its group and kind: a tree CRD that is the
   * same serves them.
   */
  const givenVersions = new Map<string, Set<string>>();
  for (const definition of given.definitions) {
    defined.set(definition.id, { definition, at: undefined });
    kinds.add(definition);
    const identity = definition.kubernetes;
    // Only the CRDs of `--definitions` files: a previous revision's load is given today's
    // definitions, whose versions its own CRDs may well not serve.
    if (identity !== undefined && given.files?.has(definition.id) === true) {
      const groupKind = groupKindOf(identity);
      const versions = givenVersions.get(groupKind) ?? new Set<string>();
      versions.add(identity.apiVersion);
      givenVersions.set(groupKind, versions);
    }
  }
  /** Takes a definition of a manifest, and remembers where it is for a later load given it. */
  const take = (definition: ResourceDefinition, report: DocumentReport): void => {
    defined.set(definition.id, { definition, at: report });
    recordDefinitionSite(definition, report.location(namePointer(report)));
  };
  /** Where a given definition comes from, as a duplicate's finding names it. */
  const givenSource = (id: string): string => given.files?.get(id) ?? given.source;

  /** A CRD's definitions; an invalid one is remembered for the resources of its kind. */
  const readCrdDefinitions = (
    value: Record<string, unknown>,
    name: string | undefined,
    report: DocumentReport,
  ): ResourceDefinition[] => {
    if (name !== undefined) given.recordPrior?.crdDocument?.(name, value);
    // A previous revision's CRD is what the cluster stored: read as an update of itself.
    const stored =
      name === undefined
        ? undefined
        : given.recordPrior !== undefined
          ? value
          : given.previous?.crd?.(name);
    let versions = readCrd(value, name, report, compiler, {
      deferSchemaCheck: given.deferSchemaChecks === true,
      celRules: given.celRules,
      ...(given.builtins === undefined
        ? {}
        : { kubernetesMinor: releaseMinor(given.builtins.release) }),
      ...(stored === undefined ? {} : { stored }),
    });
    if (versions.length > 0 && !crdNames.claim(value, report)) versions = [];
    if (versions.length === 0) invalid.addCrd(value, kinds, report);
    return versions.map((v) => v.definition);
  };

  /**
   * Takes a CRD's definitions; one whose type is defined already by another definition is
   * reported (once for the CRD) and none of its versions is taken: the first CRD of a kind is
   * the kind's, whole.
   */
  const defineCrd = (
    value: Record<string, unknown>,
    name: string | undefined,
    report: DocumentReport,
  ): void => {
    const versions = readCrdDefinitions(value, name, report);
    // The same CRD as a given one serves the same versions: one serving fewer or more is
    // another CRD (applied, it would replace the one given).
    const identity = versions[0]?.kubernetes;
    const givenServed =
      identity === undefined ? undefined : givenVersions.get(groupKindOf(identity));
    const served = new Set(versions.map((d) => d.kubernetes?.apiVersion));
    if (
      givenServed !== undefined &&
      (givenServed.size !== served.size || [...givenServed].some((v) => !served.has(v)))
    ) {
      const clash = versions.find((d) => defined.has(d.id)) ?? versions[0];
      if (clash !== undefined) {
        reportDuplicate(clash, defined.get(clash.id), givenSource(clash.id), report);
      }
      return;
    }
    for (const definition of versions) {
      const known = defined.get(definition.id);
      if (known === undefined) continue;
      // A given CRD checked again as a manifest (`helm template --include-crds` with the
      // chart's crds/ as --definitions) defines nothing new: no conflict.
      const again =
        (known.at === undefined || given.identicalAreOne === true) &&
        sameDefinition(known.definition, definition);
      if (!again) {
        reportDuplicate(definition, known, givenSource(definition.id), report);
        return;
      }
    }
    for (const definition of versions) {
      if (defined.has(definition.id)) continue;
      take(definition, report);
      definitions.push(definition);
      kinds.add(definition);
    }
  };

  const rgds = given.resourceGraphs(
    compiler,
    given,
    (definition, report, sameAs) => {
      const known = defined.get(definition.id);
      if (known !== undefined) {
        // A given RGD read again as it was (a test's step applying the project's RGD again, as a
        // given CRD may be) defines nothing new: the given one stands, no conflict.
        if (known.at !== undefined || sameAs?.(known.definition) !== true) {
          reportDuplicate(definition, known, given.source, report);
        }
        return false;
      }
      take(definition, report);
      definitions.push(definition);
      kinds.add(definition);
      return true;
    },
    (report, { group, kind }, definition) => {
      // kro creates an RGD's CRD only once its graph builds: the kind of one it refuses is not
      // served, so its instances (a manifest, or another RGD's template) are of an unknown kind.
      const at = report.location(namePointer(report));
      if (definition === undefined) {
        kinds.addInvalid(group, kind, at, 'ResourceGraphDefinition');
        return;
      }
      kinds.withdraw(definition, at, 'ResourceGraphDefinition');
      const index = definitions.indexOf(definition);
      if (index >= 0) definitions.splice(index, 1);
      if (defined.get(definition.id)?.definition === definition) defined.delete(definition.id);
      invalid.add(definition, undefined, report);
    },
  );

  const transforms: TakenTransform[] = [];

  for (const parsed of files) {
    findings.push(...parsed.findings);
    const appliedBy = parsed.appliedBy === undefined ? {} : { appliedBy: parsed.appliedBy };
    for (const document of parsed.documents) {
      const report = new DocumentReport(document, findings);
      if (isKubernetesShaped(document.value)) {
        const list = isKubernetesList(document.value)
          ? listItems(document.value, document, findings)
          : { objects: [{ item: document.value, report }], notObjects: [] };
        // An item that is not an object is a document of its own, invalid.
        for (const itemReport of list.notObjects)
          pending.push({ report: itemReport, header: undefined });
        const objects = list.objects;
        for (const { item, report: itemReport } of objects) {
          const headerFindings: Finding[] = [];
          const header = readKubernetesHeader(
            item,
            itemReport,
            itemReport.withFindings(headerFindings),
          );
          if (isXrdDocument(item)) {
            // Its kinds are defined as Crossplane's CRDs of it define them; it is a resource too.
            for (const crd of xrdCrds(item)) {
              const metadata = crd.metadata as { name: string };
              defineCrd(crd, metadata.name, itemReport);
            }
            pending.push({ report: itemReport, header, headerFindings, ...appliedBy });
            continue;
          }
          if (isConstraintTemplateDocument(item)) {
            // Its constraints' kind is defined as Gatekeeper's CRD of it defines it; it is a
            // resource too.
            const crd = constraintCrd(item, itemReport);
            if (crd !== undefined) {
              const name = (crd.metadata as { name: string }).name;
              defineCrd(crd, name, new ConstraintCrdReport(itemReport));
            }
            // Its CEL, which Gatekeeper compiles without reporting (CEL is loaded if there is any).
            const cel = lazyAdmissionCel(given.celRules);
            for (const problem of templateExpressionProblems(item, cel)) {
              itemReport.add('cel-invalid-rule', problem.path, problem.message, {
                rule: problem.keyword,
              });
            }
            pending.push({ report: itemReport, header, headerFindings, ...appliedBy });
            continue;
          }
          if (rgds.take(item, header, itemReport)) {
            // A definition's header is part of the definition: reported now.
            itemReport.adopt(headerFindings);
            continue;
          }
          if (!isCrdDocument(item)) {
            pending.push({ report: itemReport, header, headerFindings, ...appliedBy });
            continue;
          }
          itemReport.adopt(headerFindings);
          defineCrd(item, header.id, itemReport);
          documents.push({
            ...describeDocument(itemReport, header),
            status: itemReport.hasErrors ? 'invalid' : 'valid',
          });
        }
        continue;
      }
      const header =
        document.value === undefined
          ? undefined
          : readManifestHeader(document.value, report, isResourceType);
      if (header?.type !== undefined && isTransformType(header.type)) {
        transforms.push({ header, report });
        continue;
      }
      if (header?.type === undefined || !isDefinitionType(header.type)) {
        pending.push({ report, header });
        continue;
      }
      const definition = readDefinition(header.spec, report, compiler, given.celRules, header.id);
      if (definition === undefined || report.hasErrors) {
        invalid.add(definition, specType(header.spec), report);
      } else if (defined.has(definition.id)) {
        const known = defined.get(definition.id);
        // The `--definitions` file read again as a manifest (`check . --definitions crds`):
        // the same definition from the same file is no duplicate of itself.
        const again =
          known !== undefined &&
          known.at === undefined &&
          given.files?.get(definition.id) === report.document.file &&
          sameDefinition(known.definition, definition);
        if (!again) reportDuplicate(definition, known, givenSource(definition.id), report);
      } else {
        take(definition, report);
        definitions.push(definition);
      }
      documents.push({
        ...describeDocument(report, { ...header, id: specType(header.spec) ?? header.id }),
        status: report.hasErrors ? 'invalid' : 'valid',
      });
    }
  }

  for (const { report, header } of rgds.compileGraphs(kinds)) {
    documents.push({
      ...describeDocument(report, header),
      status: report.hasErrors ? 'invalid' : 'valid',
    });
  }
  const registry = new DefinitionRegistry([
    resourceDefinitionDefinition,
    ...given.definitions,
    ...definitions,
  ]);
  kinds.registerBuiltinsIn(registry);
  if (transforms.length > 0) {
    given.compileTransforms?.(transforms, registry, compiler, given);
    for (const { report, header } of transforms) {
      documents.push({
        ...describeDocument(report, header),
        status: report.hasErrors ? 'invalid' : 'valid',
      });
    }
  }
  return { definitions, registry, invalid, kinds, pending, documents };
}

/**
 * Whether a parsed file holds a definition document (a cosi definition, a transform, a CRD, or
 * what `isGraphDocument` takes: an RGD), in a Kubernetes List too. Only looks at the documents'
 * types: nothing is read or compiled, so a file is classified before its one load.
 */
export function holdsDefinitionDocuments(
  file: ParsedManifest,
  isGraphDocument: (value: Record<string, unknown>) => boolean,
): boolean {
  const isDefinitionDocument = (value: unknown): boolean => {
    if (isKubernetesShaped(value)) {
      if (isKubernetesList(value)) {
        return listItemValues(value).some(
          (item) => isKubernetesShaped(item) && isDefinitionDocument(item),
        );
      }
      return (
        isCrdDocument(value) ||
        isXrdDocument(value) ||
        isConstraintTemplateDocument(value) ||
        isGraphDocument(value)
      );
    }
    if (!isPlainObject(value) || !isPlainObject(value.metadata)) return false;
    const type = value.metadata.type;
    return typeof type === 'string' && (isDefinitionType(type) || isTransformType(type));
  };
  return file.documents.some((document) => isDefinitionDocument(document.value));
}

/** Whether a type names definitions; a set lookup, since most documents are not definitions. */
function isDefinitionType(type: string): boolean {
  return type === RESOURCE_DEFINITION_TYPE || DEFINITION_TYPE_NAMES.has(type.toLowerCase());
}

/** Resources need an id; definitions are named by their spec's type. */
function isResourceType(type: string): boolean {
  return !isDefinitionType(type);
}

/** The type a definition's spec names, if it names one. */
function specType(spec: unknown): string | undefined {
  if (!isPlainObject(spec)) return undefined;
  return typeof spec.type === 'string' ? spec.type : undefined;
}

/**
 * Whether two definitions of one type are the same: the same names, Kubernetes identity, schema
 * and columns (as the same CRD read twice gives them).
 */
function sameDefinition(a: ResourceDefinition, b: ResourceDefinition): boolean {
  return (
    JSON.stringify([a.type, a.aliases, a.kubernetes, a.printColumns, a.schema]) ===
    JSON.stringify([b.type, b.aliases, b.kubernetes, b.printColumns, b.schema])
  );
}

/**
 * Reports a second definition of a type at `report`: at the first one's place, a manifest of this
 * load or of an earlier one whose definitions were given to this one (a test project's apply);
 * else in the given definitions' file (the config, a `--definitions` file).
 */
function reportDuplicate(
  definition: ResourceDefinition,
  known:
    | { readonly definition: ResourceDefinition; readonly at: DocumentReport | undefined }
    | undefined,
  givenSource: string,
  report: DocumentReport,
): void {
  const first =
    known?.at?.location(namePointer(known.at)) ??
    (known === undefined ? undefined : definitionSite(known.definition));
  report.add(
    'duplicate-definition',
    namePointer(report),
    first === undefined
      ? `the type ${definition.type} is already defined in ${givenSource || 'the configuration'}`
      : `the type ${definition.type} is already defined at ${formatLocation(first)}`,
    first === undefined ? {} : { related: first },
  );
}

/** Where a definition document names its type: a CRD by its name, cosi's by `spec.type`. */
function namePointer(report: DocumentReport | undefined): string {
  if (report === undefined) return '/spec/type';
  return isKubernetesShaped(report.document.value) ? '/metadata/name' : '/spec/type';
}

/**
 * Definitions that were not registered because of their findings: a resource of such a type is
 * still an unknown type, but its finding can say where the broken definition is.
 */
export class InvalidDefinitions {
  readonly #registry = new DefinitionRegistry();
  readonly #byType = new Map<string, DocumentReport>();
  readonly #reports = new Map<string, DocumentReport>();

  add(
    definition: ResourceDefinition | undefined,
    type: string | undefined,
    report: DocumentReport,
  ): void {
    if (definition !== undefined) {
      this.#registry.register(definition);
      this.#reports.set(definition.type, report);
    } else if (type !== undefined) {
      this.#byType.set(type.toLowerCase(), report);
    }
  }

  /** Remembers a CRD left out for its findings, by its group and kind and by its name. */
  addCrd(value: Record<string, unknown>, kinds: KubernetesKinds, report: DocumentReport): void {
    const spec = isPlainObject(value.spec) ? value.spec : {};
    const names = isPlainObject(spec.names) ? spec.names : {};
    if (typeof spec.group === 'string' && typeof names.kind === 'string') {
      kinds.addInvalid(spec.group, names.kind, report.location('/metadata/name'));
    }
    const metadata = isPlainObject(value.metadata) ? value.metadata : {};
    if (typeof metadata.name === 'string') this.#byType.set(metadata.name.toLowerCase(), report);
  }

  /** Where the invalid definition of a type name is, if there is one. */
  find(name: string): SourceLocation | undefined {
    let report = this.#byType.get(name.toLowerCase());
    if (report === undefined) {
      try {
        report = this.#reports.get(this.#registry.resolve(name).type);
      } catch {
        return undefined;
      }
    }
    return report?.location(namePointer(report));
  }
}

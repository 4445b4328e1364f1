import {
  RESOURCE_DEFINITION_TYPE,
  resourceDefinitionDefinition,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import { DefinitionRegistry, TypeResolutionError } from '../engine/resource/definition-registry.js';
import { formatPointer, pointerKey } from '../engine/resource/pointer.js';
import { newResource, type Draft } from '../engine/resource/resource.js';
import { readDefinition } from './definition-document.js';
import { DocumentReport } from './document-report.js';
import {
  compareFindings,
  createFinding,
  formatLocation,
  type Finding,
  type SourceLocation,
} from './finding.js';
import { readManifestHeader, type ManifestHeader } from './manifest-document.js';
import {
  parseManifest,
  type ParsedDocument,
  type ParsedManifest,
  type ParseManifestOptions,
} from './parse-manifest.js';
import { sharedSchemaCompiler, type SchemaCompiler } from './schema-compiler.js';

/** A manifest file's name and contents. */
export interface ManifestFile {
  /** The path as it should appear in findings. */
  readonly path: string;
  readonly text: string;
}

/** Where a loaded resource was written. */
export interface ManifestSource {
  readonly file: string;
  /** 1-based position of the document's root node. */
  readonly line: number;
  readonly col: number;
  /** 0-based index of the document in its file (empty documents count). */
  readonly document: number;
}

/** A resource read from a manifest: a new draft with no owner, and its definition. */
export interface ManifestResource {
  /** `pointerKey` of the resource: unique among the loaded resources. */
  readonly key: string;
  readonly resource: Draft;
  readonly definition: ResourceDefinition;
  readonly source: ManifestSource;
}

/** Options of {@link loadManifests}. */
export interface LoadManifestsOptions extends ParseManifestOptions {
  /** Definitions known beforehand (from the project's config). */
  readonly definitions?: readonly ResourceDefinition[];
  /** Where `definitions` come from, as the file of findings about them (`cosi.config.ts`). */
  readonly definitionsSource?: string;
  /** The schema compiler; a process-wide shared one when omitted. */
  readonly schemaCompiler?: SchemaCompiler;
}

/** What {@link loadManifests} returns. Nothing with an error finding is in it. */
export interface LoadResult {
  /** Definitions declared in the manifests, in source order (not `options.definitions`). */
  readonly definitions: ResourceDefinition[];
  /** Resources in source order. */
  readonly resources: ManifestResource[];
  /** Every finding, sorted by file, line and column. */
  readonly findings: Finding[];
}

/** A document read in the first pass, waiting for its type to be resolved. */
interface PendingDocument {
  readonly document: ParsedDocument;
  readonly report: DocumentReport;
  readonly header: ManifestHeader | undefined;
}

/** Every name of the definition type, lower-cased, as the registry resolves them. */
const DEFINITION_TYPE_NAMES = new Set([
  resourceDefinitionDefinition.id,
  ...resourceDefinitionDefinition.allAliases,
]);

/**
 * Loads resources from manifest files. Pure: the files are given as text, in the order to load
 * them. Never throws for bad input: every problem is a finding, and all of them are collected.
 *
 * Two passes: first the `ResourceDefinitions.meta.cosi.dev` documents of all files (by any alias,
 * such as `rd`), so that a type may be used before the file that defines it; then every other
 * document, whose type is resolved by name or alias and whose spec is checked against the
 * type's JSON Schema.
 *
 * @example
 * const { resources, findings } = loadManifests([{ path: 'vms.yaml', text }], { definitions });
 * if (hasErrors(findings)) for (const f of findings) console.error(formatFinding(f));
 */
export function loadManifests(
  files: readonly ManifestFile[],
  options: LoadManifestsOptions = {},
): LoadResult {
  return loadParsedManifests(
    files.map((file) => parseManifest(file.text, file.path, options)),
    options,
  );
}

/**
 * {@link loadManifests} on files already parsed with `parseManifest`: the resolution and
 * validation passes only. An incremental loader keeps the parse of unchanged files and calls this.
 * The parsed documents are only read, never changed, so they may be loaded again.
 */
export function loadParsedManifests(
  files: readonly ParsedManifest[],
  options: LoadManifestsOptions = {},
): LoadResult {
  const findings: Finding[] = [];
  const compiler = options.schemaCompiler ?? sharedSchemaCompiler();
  const extras = options.definitions ?? [];
  const extrasSource = options.definitionsSource ?? '';

  const pending: PendingDocument[] = [];
  const definitions: ResourceDefinition[] = [];
  /** Definition id -> the document that defined it (`undefined`: given in options). */
  const definedAt = new Map<string, DocumentReport | undefined>();
  const invalid = new InvalidDefinitions();
  for (const extra of extras) definedAt.set(extra.id, undefined);

  for (const parsed of files) {
    findings.push(...parsed.findings);
    for (const document of parsed.documents) {
      const report = new DocumentReport(document, findings);
      const header =
        document.value === undefined
          ? undefined
          : readManifestHeader(document.value, report, isResourceType);
      if (header?.type === undefined || !isDefinitionType(header.type)) {
        pending.push({ document, report, header });
        continue;
      }
      const definition = readDefinition(header.spec, report, compiler);
      if (definition === undefined || report.hasErrors) {
        invalid.add(definition, specType(header.spec), report);
        continue;
      }
      if (definedAt.has(definition.id)) {
        const first = definedAt.get(definition.id)?.location('/spec/type');
        report.add(
          'duplicate-definition',
          '/spec/type',
          first === undefined
            ? `the type ${definition.type} is already defined in ${extrasSource || 'the configuration'}`
            : `the type ${definition.type} is already defined at ${formatLocation(first)}`,
          first === undefined ? {} : { related: first },
        );
        continue;
      }
      definedAt.set(definition.id, report);
      definitions.push(definition);
    }
  }

  const registry = new DefinitionRegistry([...extras, ...definitions]);
  const resources: ManifestResource[] = [];
  const seen = new Map<string, DocumentReport>();
  const badExtraSchemas = new Set<ResourceDefinition>();
  for (const { document, report, header } of pending) {
    if (header === undefined) continue;
    const definition = resolveType(header.type, registry, report, invalid);
    if (definition === undefined) continue;
    if (definition.schema !== undefined) {
      const compiled = compiler.compile(definition.schema);
      if (compiled.validate === undefined && !badExtraSchemas.has(definition)) {
        // Only a definition given in options can get here: a manifest's own invalid schema
        // keeps its definition from being registered.
        badExtraSchemas.add(definition);
        for (const problem of compiled.problems) {
          findings.push(
            createFinding({
              code: 'invalid-schema',
              message: `the schema of ${definition.type} is invalid: ${problem.message}`,
              file: extrasSource,
              line: 0,
              col: 0,
              pointer: '',
              rule: problem.keyword,
            }),
          );
        }
      }
      for (const problem of compiled.validate?.(header.spec) ?? []) {
        report.add('schema-violation', `/spec${problem.path}`, problem.message, {
          part: problem.part,
          rule: problem.keyword,
        });
      }
    }
    if (header.id === undefined) continue;
    const namespace = header.namespace ?? definition.defaultNamespace;
    const pointer = { namespace, type: definition.type, id: header.id };
    const key = pointerKey(pointer);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, report);
    } else {
      const related = first.location('/metadata/id');
      report.add(
        'duplicate-resource',
        '/metadata/id',
        `${formatPointer(pointer)} is already defined at ${formatLocation(related)}`,
        { related },
      );
    }
    if (report.hasErrors) continue;
    resources.push({
      key,
      resource: newResource(pointer, header.spec, {
        labels: header.labels,
        annotations: header.annotations,
      }),
      definition,
      source: {
        file: document.file,
        line: document.position.line,
        col: document.position.col,
        document: document.index,
      },
    });
  }

  if (pending.length === 0) {
    findings.push(
      createFinding({
        code: 'empty-input',
        message:
          files.length === 0
            ? 'no manifest files found'
            : `no resources found in ${files.length} file${files.length === 1 ? '' : 's'}`,
        file: '',
        line: 0,
        col: 0,
        pointer: '',
      }),
    );
  }
  findings.sort(compareFindings);
  return { definitions, resources, findings };
}

/** Whether a type names definitions; a set lookup, since most documents are not definitions. */
function isDefinitionType(type: string): boolean {
  return type === RESOURCE_DEFINITION_TYPE || DEFINITION_TYPE_NAMES.has(type.toLowerCase());
}

/** Resources need an id; definitions are named by their spec's type. */
function isResourceType(type: string): boolean {
  return !isDefinitionType(type);
}

function specType(spec: unknown): string | undefined {
  if (typeof spec !== 'object' || spec === null) return undefined;
  const type = (spec as Record<string, unknown>).type;
  return typeof type === 'string' ? type : undefined;
}

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
        `the type ${JSON.stringify(type)} is ambiguous: it matches ${error.candidates.join(', ')}; use the full type`,
      );
      return undefined;
    }
    const definedAt = invalid.find(type);
    report.add(
      'unknown-type',
      '/metadata/type',
      definedAt === undefined
        ? `the type ${JSON.stringify(type)} is not defined`
        : `the type ${JSON.stringify(type)} is not defined: its definition at ${formatLocation(definedAt)} is invalid`,
      definedAt === undefined ? {} : { related: definedAt },
    );
    return undefined;
  }
}

/**
 * Definitions that were not registered because of their findings: a resource of such a type is
 * still an unknown type, but its finding can say where the broken definition is.
 */
class InvalidDefinitions {
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
    return report?.location('/spec/type');
  }
}

import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import {
  collectDefinitions,
  givenDefinitions,
  holdsDefinitionDocuments,
  type CollectedDefinitions,
  type GivenDefinitions,
  type InvalidDefinitions,
} from './collect-definitions.js';
import { compareFindings, type Finding } from './finding.js';
import type { LoadManifestsOptions, LoadResult } from './load-options.js';
import type { ManifestFile, ManifestResource } from './manifest-resource.js';
import { samePosition, type Position } from './position.js';
import type { ResourceDocument } from './resource-document.js';
import { readResourceGraphDefinitions } from './kro/read-resource-graphs.js';
import { isRgdDocument } from './kro/resource-graph-definition.js';
import { compileTransforms } from './transforms/transform-document.js';
import { loadResources } from './load-resources.js';
import { specCheckerFor } from './spec-checker.js';
import { identityOf } from './resource-identity.js';
import type { KubernetesKinds } from './kubernetes/kubernetes-kinds.js';
import type { parseManifest, ParsedManifest } from './parse/parse-manifest.js';
import { parseManifestOrTakePreparsed } from './preparsed-manifests.js';
import { sameAppliedBy } from './applied-by.js';
import { withAppliedBy } from './test-expressions.js';
import { sharedSchemaCompiler, type SchemaCompiler } from './schema-compiler.js';
import { byPosition } from './resource-document.js';
import {
  joinedParse,
  parseSegments,
  segmentsOfWholeParse,
  type ParsedSegment,
} from './segmented-parse.js';

/**
 * Parses one file; by default `parseManifest`, or the same parse made ahead on another thread
 * (`preparsed-manifests.ts`), unless a test counts the calls.
 */
export type ParseFunction = typeof parseManifest;

/**
 * The full load of parsed files (`loadParsedManifests`), which a cache falls back to for the rare
 * loads it does not take apart; handed to the cache, which sits beside it, not above it.
 */
export type LoadWhole = (
  files: readonly ParsedManifest[],
  options: LoadManifestsOptions,
) => LoadResult;

/** Options of {@link ManifestCache}: those of `loadManifests`, and the parse function. */
export interface ManifestCacheOptions extends LoadManifestsOptions {
  readonly parse?: ParseFunction;
}

/** What {@link ManifestCache.load} returns: the load, and which files had to be parsed. */
export interface CachedLoadResult extends LoadResult {
  /** Paths of the files parsed by this load (new or changed); the others were reused. */
  readonly parsed: readonly string[];
  /**
   * Paths of the files whose documents were resolved and validated by this load; the others'
   * results were reused, because neither they nor the definitions changed.
   */
  readonly resolved: readonly string[];
  /**
   * The files whose resources may differ from the previous load's (new, changed, re-resolved,
   * or gone: then with no resources), in load order, each with its resources now: what an
   * applier grouped by file needs to apply this load on top of the previous one. Absent on a
   * cache's first load and on a load that took the full path (duplicates, no resources): then
   * only `resources` as a whole says what to apply. Not enumerable, so that a load still equals
   * the full load of the same files.
   */
  readonly changes?: ReadonlyMap<string, readonly ManifestResource[]>;
}

/** The types every file is resolved against: the definitions in the manifests and the given ones. */
interface Definitions {
  /** The parses of the files that hold definition documents, in load order. */
  readonly files: readonly ParsedManifest[];
  readonly definitions: ResourceDefinition[];
  readonly registry: DefinitionRegistry;
  readonly invalid: InvalidDefinitions;
  readonly kinds: KubernetesKinds;
  /** The definition files' own other documents, resolved. */
  readonly resources: readonly ManifestResource[];
  /** And as the check report names them. */
  readonly documents: readonly ResourceDocument[];
  readonly findings: readonly Finding[];
  readonly pending: number;
  /** The keys of the definition files' documents it did not load (see `FileLoad`). */
  readonly unloadedKeys: readonly string[];
}

/** The identities a duplicate of which the definition files' documents make. */
function definitionKeys(definitions: Definitions): string[] {
  return [...definitions.resources.map(identityOf), ...definitions.unloadedKeys];
}

/** One file without definitions, resolved and validated against one {@link Definitions}. */
interface FileLoad {
  readonly against: Definitions;
  readonly resources: readonly ManifestResource[];
  readonly documents: readonly ResourceDocument[];
  readonly findings: readonly Finding[];
  /** Resource documents (loaded or not), for the empty-input finding. */
  readonly pending: number;
  /**
   * The keys of its documents that name a resource it did not load (refused for errors, a test's
   * patch): another file's document of one of them is a duplicate, or the revision the patch
   * is then, which the whole load tells apart as it does for loaded resources.
   */
  readonly unloadedKeys: readonly string[];
  /** A long file's: its segments' loads, which it joins (counted for duplicates one by one). */
  readonly parts?: readonly FileLoad[];
}

interface Entry {
  readonly text: string;
  readonly origin: Position | undefined;
  readonly parsed: ParsedManifest;
  /** Whether the file holds a definition document (then it is resolved with all of them). */
  readonly hasDefinitions: boolean;
  load?: FileLoad;
  /**
   * A long file's segments (`segmented-parse.ts`), each with its load when resolved on its own:
   * the next edit of the file parses and resolves the segments it changed only. Absent: the file
   * is parsed and resolved whole.
   */
  segments?: readonly ParsedSegment<FileLoad>[];
}

/**
 * An incremental `loadManifests`: keeps each file's parse keyed by its path and content, and
 * each file's resolution and validation for as long as the definitions do not change, so a load
 * after a one-file edit parses and resolves that file only and costs what the edit changed, not
 * the size of the tree.
 *
 * The result equals a full `loadManifests` of the same files: the files that hold definitions
 * (few) are resolved together, as the first pass of a full load; every other file on its own
 * against their types. A resource defined twice across files, or files without a single resource,
 * take the full load, which reports them as it always does.
 *
 * Pure: the files are given as text. Files not given to a load are forgotten.
 *
 * @example
 * const cache = new ManifestCache(loadParsedManifests, { definitions });
 * cache.load(files); // parses and resolves every file
 * cache.load(files.map((f) => (f.path === 'vms.yaml' ? { ...f, text: edited } : f))); // vms.yaml only
 */
export class ManifestCache {
  readonly #options: ManifestCacheOptions;
  readonly #loadWhole: LoadWhole;
  readonly #parse: ParseFunction;
  readonly #compiler: SchemaCompiler;
  readonly #given: GivenDefinitions;
  #entries = new Map<string, Entry>();
  #definitions: Definitions | undefined;
  /**
   * Resource identity (`identityOf`: one object whichever API version writes it) -> how many
   * loaded files define it, kept per file load: duplicates in O(edit).
   */
  readonly #keyCounts = new Map<string, number>();
  #duplicateKeys = 0;
  /**
   * How many counted file loads hold each segment's load: a segment kept by an edit of its file
   * is in the file's load before and after, and its keys are not counted out and in again.
   */
  readonly #partHolders = new Map<FileLoad, number>();
  /** Whether the last load's result can be the base of the next one's `changes`. */
  #changesBase = false;
  /** The last load's entries in load order, their places by path, and its pending count. */
  #ordered: Entry[] = [];
  #index = new Map<string, number>();
  #pending = 0;

  constructor(loadWhole: LoadWhole, options: ManifestCacheOptions = {}) {
    this.#loadWhole = loadWhole;
    this.#options = options;
    this.#parse = options.parse ?? parseManifestOrTakePreparsed;
    this.#compiler = options.schemaCompiler ?? sharedSchemaCompiler();
    this.#given = givenDefinitions(
      options,
      readResourceGraphDefinitions,
      undefined,
      compileTransforms,
    );
  }

  /** Loads `files` (in load order), parsing and resolving only those that are new or changed. */
  load(files: readonly ManifestFile[]): CachedLoadResult {
    const entries = new Map<string, Entry>();
    const parsed: string[] = [];
    for (const file of files) {
      let entry = this.#entries.get(file.path);
      if (
        entry?.text !== file.text ||
        !samePosition(entry.origin, file.origin) ||
        !sameAppliedBy(entry.parsed.appliedBy, file.appliedBy)
      ) {
        entry = this.#parseEntry(file, entry);
        parsed.push(file.path);
      }
      entries.set(file.path, entry);
    }
    const gone: string[] = [];
    for (const [file, entry] of this.#entries) {
      if (entries.get(file) !== entry) this.#forget(entry);
      if (!entries.has(file)) gone.push(file);
    }
    this.#entries = entries;

    const ordered = files.map((file) => entries.get(file.path) as Entry);
    const lastDefinitions = this.#definitions;
    const definitions = this.#resolveDefinitions(ordered);
    const changes = new Map<string, readonly ManifestResource[]>();
    const resolved: string[] = [];
    const resources: ManifestResource[] = [];
    const findings: Finding[] = [...definitions.findings];
    let pending = definitions.pending;
    let fromDefinitionFiles = 0;
    for (const entry of ordered) {
      if (entry.hasDefinitions) {
        // Their resources are in load order among the definition files: take this file's.
        const file = entry.parsed.file;
        const own: ManifestResource[] = [];
        while (definitions.resources[fromDefinitionFiles]?.source.file === file) {
          own.push(definitions.resources[fromDefinitionFiles++] as ManifestResource);
        }
        for (const resource of own) resources.push(resource);
        if (definitions !== lastDefinitions) changes.set(file, own);
        continue;
      }
      if (entry.load?.against !== definitions) {
        if (entry.load) this.#count(entry.load, -1);
        entry.load = this.#loadEntry(entry, definitions);
        this.#count(entry.load, 1);
        resolved.push(entry.parsed.file);
        changes.set(entry.parsed.file, entry.load.resources);
      }
      for (const resource of entry.load.resources) resources.push(resource);
      for (const finding of entry.load.findings) findings.push(finding);
      pending += entry.load.pending;
    }
    // A file that became a definition file, or stopped being one, is in `changes` all the same.
    for (const file of gone) changes.set(file, []);
    this.#ordered = ordered;
    this.#index = new Map(files.map((file, i) => [file.path, i]));
    this.#pending = pending;
    const base = this.#changesBase;
    this.#changesBase = this.#duplicateKeys === 0 && pending > 0;
    if (!this.#changesBase) {
      // Rare, and reported by the full load with the same findings as ever.
      return {
        ...this.#loadWhole(
          ordered.map((entry) => entry.parsed),
          this.#options,
        ),
        parsed,
        resolved: files.map((file) => file.path),
      };
    }
    let documents: ResourceDocument[] | undefined;
    const result: CachedLoadResult = {
      definitions: definitions.definitions,
      registry: definitions.registry,
      resources,
      findings: dedupeGivenSchemaFindings(findings, this.#given.source).sort(compareFindings),
      get documents() {
        return (documents ??= gatherDocuments(ordered, definitions));
      },
      parsed,
      resolved,
    };
    return base ? withChanges(result, changes) : result;
  }

  /**
   * {@link load}, when `files` are the last load's files in the same order and only those named
   * in `changed` may hold other text (a watcher saw only those change): it touches the changed
   * files alone, so its cost does not grow with the tree; `resources` are gathered when first
   * read. Anything else (a definition file changed, a file not loaded before) takes `load`.
   */
  loadChanged(files: readonly ManifestFile[], changed: Iterable<string>): CachedLoadResult {
    if (!this.#changesBase || files.length !== this.#ordered.length) return this.load(files);
    const fresh: { index: number; entry: Entry }[] = [];
    for (const path of new Set(changed)) {
      const index = this.#index.get(path);
      const file = index === undefined ? undefined : files[index];
      if (index === undefined || file?.path !== path) return this.load(files);
      const last = this.#ordered[index] as Entry;
      if (
        last.text === file.text &&
        samePosition(last.origin, file.origin) &&
        sameAppliedBy(last.parsed.appliedBy, file.appliedBy)
      ) {
        continue;
      }
      fresh.push({ index, entry: this.#parseEntry(file, last) });
    }
    fresh.sort((a, b) => a.index - b.index);
    const parsed = fresh.map(({ entry }) => entry.parsed.file);
    // Forgotten once the edited files' loads are counted: what those keep is not counted again.
    const replaced: Entry[] = [];
    for (const { index, entry } of fresh) {
      const old = this.#ordered[index] as Entry;
      replaced.push(old);
      this.#pending -= old.load?.pending ?? 0;
      this.#entries.set(entry.parsed.file, entry);
      this.#ordered[index] = entry;
    }
    if (fresh.some(({ index, entry }) => entry.hasDefinitions || this.#wasDefinitionFile(index))) {
      // The definitions may change: the whole load (which keeps these parses).
      for (const old of replaced) this.#forget(old);
      const result = this.load(files);
      return withChanges({ ...result, parsed: [...parsed, ...result.parsed] }, result.changes);
    }
    const definitions = this.#definitions as Definitions;
    const changes = new Map<string, readonly ManifestResource[]>();
    for (const { entry } of fresh) {
      const load = this.#loadEntry(entry, definitions);
      entry.load = load;
      this.#count(load, 1);
      this.#pending += load.pending;
      changes.set(entry.parsed.file, load.resources);
    }
    for (const old of replaced) this.#forget(old);
    if (this.#duplicateKeys > 0 || this.#pending === 0) {
      // Reported by the whole load, as ever.
      const result = this.load(files);
      return { ...result, parsed: [...parsed, ...result.parsed], resolved: result.resolved };
    }
    const ordered = [...this.#ordered];
    const findings: Finding[] = [...definitions.findings];
    for (const entry of ordered) {
      if (entry.load && entry.load.findings.length > 0) findings.push(...entry.load.findings);
    }
    let resources: ManifestResource[] | undefined;
    let documents: ResourceDocument[] | undefined;
    const result: CachedLoadResult = {
      definitions: definitions.definitions,
      registry: definitions.registry,
      get resources() {
        return (resources ??= gatherResources(ordered, definitions));
      },
      get documents() {
        return (documents ??= gatherDocuments(ordered, definitions));
      },
      findings: dedupeGivenSchemaFindings(findings, this.#given.source).sort(compareFindings),
      parsed,
      resolved: parsed,
    };
    return withChanges(result, changes);
  }

  /** Whether the file at `index` was among the last definitions' files. */
  #wasDefinitionFile(index: number): boolean {
    const file = (this.#ordered[index] as Entry).parsed.file;
    return this.#definitions?.files.some((f) => f.file === file) ?? false;
  }

  /**
   * Parses a file new or changed. A long file edited (`previous` is its last entry) is parsed
   * segment by segment: only the segments the edit changed (see `segmented-parse.ts`).
   */
  #parseEntry(file: ManifestFile, previous?: Entry): Entry {
    const options = file.origin ? { ...this.#options, origin: file.origin } : this.#options;
    const segments =
      previous && file.origin === undefined && file.appliedBy === undefined
        ? parseSegments(file.text, file.path, options, segmentsOf(previous), this.#parse)
        : undefined;
    const parse = segments
      ? joinedParse(file.path, segments)
      : this.#parse(file.text, file.path, options);
    const manifest = withAppliedBy(parse, file.appliedBy);
    return {
      text: file.text,
      origin: file.origin,
      parsed: manifest,
      hasDefinitions: holdsDefinitions(manifest),
      ...(segments ? { segments } : {}),
    };
  }

  /** The definitions of this load: the last ones while the files that hold them did not change. */
  #resolveDefinitions(entries: readonly Entry[]): Definitions {
    const files = entries.filter((e) => e.hasDefinitions).map((e) => e.parsed);
    const last = this.#definitions;
    if (last && last.files.length === files.length && last.files.every((f, i) => f === files[i])) {
      return last;
    }
    const findings: Finding[] = [];
    const collected = collectDefinitions(files, this.#given, this.#compiler, findings);
    const documents: ResourceDocument[] = [...collected.documents];
    const unloadedKeys: string[] = [];
    const schemas = specCheckerFor(
      this.#given,
      collected.kinds,
      this.#compiler,
      findings,
      this.#options,
    );
    const resources = loadResources(
      collected,
      schemas,
      findings,
      this.#options,
      documents,
      unloadedKeys,
    );
    this.#definitions = {
      files,
      definitions: collected.definitions,
      registry: collected.registry,
      invalid: collected.invalid,
      kinds: collected.kinds,
      resources,
      documents,
      findings,
      pending: collected.pending.length,
      unloadedKeys,
    };
    // The definition files' resources count for duplicates as any file's do.
    if (last) for (const key of definitionKeys(last)) this.#countKey(key, -1);
    for (const key of definitionKeys(this.#definitions)) this.#countKey(key, 1);
    return this.#definitions;
  }

  /**
   * Resolves and validates one entry without definitions against `definitions`: segment by
   * segment when it has segments, each resolved again only when it is new or the definitions
   * changed.
   */
  #loadEntry(entry: Entry, definitions: Definitions): FileLoad {
    // A long file parsed whole (a first load) is resolved by segment all the same, so that its
    // first edit finds the other segments' loads.
    if (entry.segments === undefined && entry.parsed.appliedBy === undefined && !entry.origin) {
      entry.segments = segmentsOfWholeParse(entry.text, entry.parsed);
    }
    if (entry.segments === undefined) return this.#loadFile(entry.parsed, definitions);
    const loads: FileLoad[] = [];
    for (const segment of entry.segments) {
      if (segment.kept?.against !== definitions) {
        segment.kept = this.#loadFile(segment.parsed, definitions);
      }
      loads.push(segment.kept);
    }
    return joinedLoad(definitions, loads);
  }

  /** Resolves and validates one file without definitions against `definitions`. */
  #loadFile(file: ParsedManifest, definitions: Definitions): FileLoad {
    const findings: Finding[] = [];
    const own = collectDefinitions([file], this.#given, this.#compiler, findings);
    const collected: CollectedDefinitions = {
      ...own,
      definitions: definitions.definitions,
      registry: definitions.registry,
      invalid: definitions.invalid,
      kinds: definitions.kinds,
    };
    const documents: ResourceDocument[] = [];
    const unloadedKeys: string[] = [];
    const schemas = specCheckerFor(
      this.#given,
      collected.kinds,
      this.#compiler,
      findings,
      this.#options,
    );
    const resources = loadResources(
      collected,
      schemas,
      findings,
      this.#options,
      documents,
      unloadedKeys,
    );
    return {
      against: definitions,
      resources,
      documents,
      findings,
      pending: own.pending.length,
      unloadedKeys,
    };
  }

  #forget(entry: Entry): void {
    if (entry.load) this.#count(entry.load, -1);
    entry.load = undefined;
  }

  #count(load: FileLoad, delta: 1 | -1): void {
    if (load.parts === undefined) {
      this.#countKeys(load, delta);
      return;
    }
    for (const part of load.parts) {
      const holders = this.#partHolders.get(part) ?? 0;
      const now = holders + delta;
      if (now === 0) this.#partHolders.delete(part);
      else this.#partHolders.set(part, now);
      if (holders === 0 || now === 0) this.#countKeys(part, delta);
    }
  }

  #countKeys(load: FileLoad, delta: 1 | -1): void {
    for (const resource of load.resources) this.#countKey(identityOf(resource), delta);
    for (const key of load.unloadedKeys) this.#countKey(key, delta);
  }

  #countKey(key: string, delta: 1 | -1): void {
    const before = this.#keyCounts.get(key) ?? 0;
    const after = before + delta;
    if (after === 0) this.#keyCounts.delete(key);
    else this.#keyCounts.set(key, after);
    if (before <= 1 && after > 1) this.#duplicateKeys++;
    if (before > 1 && after <= 1) this.#duplicateKeys--;
  }
}

/** A file's segments' parses: its own, or those of its last parse when it was parsed whole. */
function segmentsOf(entry: Entry): readonly ParsedSegment<FileLoad>[] {
  return entry.segments ?? segmentsOfWholeParse(entry.text, entry.parsed) ?? [];
}

/** One file's load of its segments' loads, in order. */
function joinedLoad(against: Definitions, loads: readonly FileLoad[]): FileLoad {
  const resources: ManifestResource[] = [];
  const documents: ResourceDocument[] = [];
  const findings: Finding[] = [];
  const unloadedKeys: string[] = [];
  let pending = 0;
  for (const load of loads) {
    for (const resource of load.resources) resources.push(resource);
    for (const document of load.documents) documents.push(document);
    for (const finding of load.findings) findings.push(finding);
    for (const key of load.unloadedKeys) unloadedKeys.push(key);
    pending += load.pending;
  }
  return { against, resources, documents, findings, pending, unloadedKeys, parts: loads };
}

/** The resources of a load, in load order (the definition files' among them). */
function gatherResources(ordered: readonly Entry[], definitions: Definitions): ManifestResource[] {
  const resources: ManifestResource[] = [];
  let fromDefinitionFiles = 0;
  for (const entry of ordered) {
    if (entry.hasDefinitions) {
      const file = entry.parsed.file;
      while (definitions.resources[fromDefinitionFiles]?.source.file === file) {
        resources.push(definitions.resources[fromDefinitionFiles++] as ManifestResource);
      }
    } else if (entry.load) {
      for (const resource of entry.load.resources) resources.push(resource);
    }
  }
  return resources;
}

/** The resource documents of every file, in load order (gathered when first read). */
function gatherDocuments(ordered: readonly Entry[], definitions: Definitions): ResourceDocument[] {
  const byFile = new Map<string, ResourceDocument[]>();
  for (const document of definitions.documents) {
    let list = byFile.get(document.file);
    if (list === undefined) byFile.set(document.file, (list = []));
    list.push(document);
  }
  const documents: ResourceDocument[] = [];
  for (const entry of ordered) {
    const own = entry.hasDefinitions
      ? byFile.get(entry.parsed.file)?.sort(byPosition)
      : entry.load?.documents;
    if (own !== undefined) for (const document of own) documents.push(document);
  }
  return documents;
}

/** `result` with its (not enumerable) {@link CachedLoadResult.changes}. */
export function withChanges<T extends CachedLoadResult>(
  result: T,
  changes: CachedLoadResult['changes'],
): T {
  if (changes === undefined) return result;
  return Object.defineProperty(result, 'changes', { value: changes, enumerable: false });
}

/**
 * Whether any document of a file is a definition: such files are resolved together. By the
 * documents' types alone: the definitions themselves (an RGD's graph, a CRD's schemas) are
 * compiled once, by the load that resolves them.
 */
function holdsDefinitions(file: ParsedManifest): boolean {
  return holdsDefinitionDocuments(file, isRgdDocument);
}

/**
 * A given definition's invalid schema is reported once by a full load; file by file, each file
 * that uses the type would report it again.
 */
function dedupeGivenSchemaFindings(findings: Finding[], source: string): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    if (f.code !== 'invalid-schema' || f.file !== source) return true;
    const key = `${f.message}\0${f.rule ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

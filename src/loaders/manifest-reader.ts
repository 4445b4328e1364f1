import { BuiltinKinds } from './kubernetes/builtin-kinds.js';
import { unknownKindFilters } from './kind-filter.js';
import * as path from 'node:path';
import type { ResourceDefinition } from '../engine/resource/definition.js';
import { loadParsedManifests } from './load-parsed-manifests.js';
import { prepareCel } from './prepare-cel.js';
import { decodeManifest, EncodingError } from './decode-manifest.js';
import { compareFindings, createFinding, type Finding } from './finding.js';
import type { ManifestFile } from './manifest-resource.js';
import {
  ManifestCache,
  withChanges,
  type CachedLoadResult,
  type ManifestCacheOptions,
} from './manifest-cache.js';
import { nodeFileSystem, type FoundFile, type ManifestFileSystem } from './manifest-file-system.js';
import { isTooLarge, ManifestTooLargeError } from './manifest-size.js';
import { readManifestFiles, type FileRead } from './read-manifest-files.js';
import { cannotRead } from './unreadable-file.js';
import { POLICY_TEST_FILE } from './policy-tests.js';
import { withRenderedOrigins } from './rendered-origin.js';
import { isDecidedByContent } from './unrendered-sources.js';
import { UNRENDERED_NAMES } from './unrendered-counts.js';
import type { UnrenderedKind, UnrenderedSource } from './unrendered-source.js';
import {
  STDIN_PATH,
  walkManifestTree,
  type WalkManifestTreeOptions,
} from './walk-manifest-tree.js';

/** Options of {@link readManifests} and {@link ManifestReader}. */
export interface ReadManifestsOptions extends ManifestCacheOptions, WalkManifestTreeOptions {
  /**
   * What the path `-` stands for (the standard input), read once by the caller: its bytes, decoded
   * as strictly as a file's, or text already decoded.
   */
  readonly stdin?: Uint8Array | string;
}

/** How findings name the standard input. */
export const STDIN_DISPLAY = '<stdin>';

/** What a read returns: the load, the files loaded, and which of them it read and parsed. */
export interface ReadResult extends CachedLoadResult {
  /** The manifest files loaded, as they appear in findings, sorted. */
  readonly files: string[];
  /**
   * Display paths of the files this read took from disk: all of them on a first read; on a
   * later one the new files and those reported changed (the others' text was kept).
   */
  readonly read: readonly string[];
  /**
   * What the walk of the directories set aside as not manifests until rendered: Helm charts,
   * kustomizations and their patches (see `unrendered-sources.ts`).
   */
  readonly unrendered: readonly UnrenderedSource[];
}

/**
 * Reads the manifests below the given paths once: the first read of a fresh
 * {@link ManifestReader}, which reads and parses every file.
 *
 * Each path is a file (read whatever its name) or a directory, searched recursively for
 * `*.yaml`, `*.yml` and `*.json` files (JSON that is no manifest set aside); inside
 * directories, other files, hidden entries (`.git`) and `node_modules` are skipped. Symlinks are followed; a symlink loop is reported, not followed, as is one that leads outside the working directory and the paths named.
 * Files are deduplicated by their real path and loaded in sorted path order (the rules are
 * `walkManifestTree`'s), as `loadManifests` loads them. Paths in findings stay as given
 * (relative paths stay relative). Never throws for bad input.
 *
 * @example
 * const { resources, findings } = await readManifests(['manifests/'], { cwd: process.cwd() });
 */
export async function readManifests(
  paths: readonly string[],
  options: ReadManifestsOptions = {},
): Promise<ReadResult> {
  return new ManifestReader(paths, options).read();
}

/** Findings that say a file was there and could not be read whole: its missing resources. */
const WHOLE_FILE_FAILURES: ReadonlySet<string> = new Set([
  'path-not-found',
  'unreadable-file',
  'symlink-loop',
  'invalid-encoding',
  'nesting-too-deep',
]);

/**
 * Reads the manifests below the given paths, again and again (`cosi watch`): every read walks
 * the paths (which reads directories, not files; see `walkManifestTree`), reads only the files
 * that are new or were reported changed, parses only those whose content differs (see
 * {@link ManifestCache}), and loads all of them. The first read reads everything:
 * {@link readManifests} is that read; every later one returns what it would then, but for
 * `read` and `parsed`.
 *
 * @example
 * const reader = new ManifestReader(['manifests/'], { cwd });
 * await reader.read(); // reads and parses everything
 * await reader.read(['/abs/manifests/vms.yaml']); // reads and parses vms.yaml only
 */
export class ManifestReader {
  readonly #paths: readonly string[];
  readonly #fs: ManifestFileSystem;
  readonly #cwd: string;
  readonly #ignore: readonly string[];
  readonly #stdin: Uint8Array | string | undefined;
  readonly #cache: ManifestCache;
  readonly #definitions: readonly ResourceDefinition[];
  readonly #options: ReadManifestsOptions;
  /** Absolute path -> text, as last read. */
  #texts = new Map<string, string>();
  /** The last walk of the paths, kept for reads that say the set of files did not change. */
  #tree: Awaited<ReturnType<typeof walkManifestTree>> | undefined;
  /** The last read's files as loaded, their places by absolute path, and its display paths. */
  #last:
    | {
        readonly manifests: readonly ManifestFile[];
        readonly places: ReadonlyMap<string, number>;
        readonly files: string[];
      }
    | undefined;

  constructor(paths: readonly string[], options: ReadManifestsOptions = {}) {
    this.#paths = paths;
    this.#fs = options.fs ?? nodeFileSystem;
    this.#cwd = options.cwd ?? process.cwd();
    this.#ignore = options.ignore ?? [];
    this.#stdin = options.stdin;
    this.#cache = new ManifestCache(loadParsedManifests, options);
    this.#definitions = options.definitions ?? [];
    this.#options = options;
  }

  /**
   * Loads the manifests again. `changed` holds absolute paths reported changed since the last
   * call; with none given (the first call), every file is read.
   *
   * With `contentOnly` the caller knows that only the contents of `changed` changed (a watcher
   * saw no file added or removed): when all of them are files the last read loaded, the
   * directories are not walked again, so the read costs the changed files, not the tree.
   */
  async read(
    changed?: Iterable<string>,
    options: { readonly contentOnly?: boolean } = {},
  ): Promise<ReadResult> {
    const stale =
      changed === undefined ? undefined : new Set([...changed].map((file) => path.resolve(file)));
    // A JSON file's content says whether it is a manifest at all (and a kustomization's or
    // another tool's file's, whether it is one), a suite.yaml's whether it is a policy test (and
    // what it names): their change walks again.
    const reuse =
      options.contentOnly === true &&
      stale !== undefined &&
      [...stale].every(
        (file) =>
          this.#texts.has(file) &&
          !isDecidedByContent(file) &&
          !POLICY_TEST_FILE.test(path.basename(file)),
      );
    if (reuse && stale.size > 0) {
      const quick = await this.#readChanged(stale);
      if (quick) return quick;
    }
    this.#last = undefined;
    const tree =
      reuse && this.#tree
        ? this.#tree
        : await walkManifestTree(this.#paths, {
            cwd: this.#cwd,
            fs: this.#fs,
            ignore: this.#ignore,
            ...(this.#options.setAsideProjects === undefined
              ? {}
              : { setAsideProjects: this.#options.setAsideProjects }),
          });
    this.#tree = tree;
    const kept = tree.files.map((file) =>
      stale?.has(file.absolute) === false ? this.#texts.get(file.absolute) : undefined,
    );
    const reads = await readManifestFiles(
      this.#fs,
      tree.files.filter((_, i) => kept[i] === undefined),
    );

    const findings: Finding[] = [...tree.findings];
    const texts = new Map<string, string>();
    const manifests: ManifestFile[] = [];
    const read: string[] = [];
    let nextRead = 0;
    tree.files.forEach((file, i) => {
      let text = kept[i];
      if (text === undefined) {
        const fileRead = reads[nextRead++] as FileRead;
        if ('finding' in fileRead) {
          findings.push(fileRead.finding);
          return;
        }
        text = fileRead.text;
        read.push(file.display);
      }
      texts.set(file.absolute, text);
      manifests.push(manifestFile(file, text));
    });
    this.#texts = texts;
    if (this.#paths.includes(STDIN_PATH)) {
      const stdin = this.#stdin ?? '';
      if (isTooLarge(stdin)) {
        // The caller read one byte past the limit: the same finding as a file that large on disk.
        findings.push(cannotRead(STDIN_DISPLAY, new ManifestTooLargeError()));
      } else {
        try {
          const text = typeof stdin === 'string' ? stdin : decodeManifest(stdin);
          manifests.push({ path: STDIN_DISPLAY, text });
        } catch (error) {
          if (!(error instanceof EncodingError)) throw error;
          const { line, col, message } = error;
          const at = { file: STDIN_DISPLAY, line, col, pointer: '' };
          findings.push(createFinding({ code: 'invalid-encoding', message, ...at }));
        }
      }
    }

    if (!this.#paths.includes(STDIN_PATH) && findings.length === tree.findings.length) {
      // Every file of the tree was read: the next read that names its changes can patch this.
      this.#last = {
        manifests,
        places: new Map(tree.files.map((file, i) => [file.absolute, i])),
        files: manifests.map((m) => m.path),
      };
    }
    await prepareCel(
      manifests.map((m) => m.text),
      this.#definitions,
    );
    return this.#result(
      this.#cache.load(manifests),
      findings,
      this.#last?.files,
      manifests,
      read,
      tree.unrendered,
    );
  }

  /**
   * A read of the given files alone, on top of the last read (when it read every file of the
   * tree): what a watcher that saw only their contents change asks for. `undefined` when the
   * last read cannot be patched or a file could not be read: then the whole read runs.
   */
  async #readChanged(stale: ReadonlySet<string>): Promise<ReadResult | undefined> {
    const last = this.#last;
    const tree = this.#tree;
    if (!last || !tree) return undefined;
    const places: number[] = [];
    for (const file of stale) {
      const place = last.places.get(file);
      if (place === undefined) return undefined;
      places.push(place);
    }
    places.sort((a, b) => a - b);
    const reads = await readManifestFiles(
      this.#fs,
      places.map((place) => tree.files[place] as (typeof tree.files)[number]),
    );
    const manifests = [...last.manifests];
    const read: string[] = [];
    for (const [i, place] of places.entries()) {
      const fileRead = reads[i] as FileRead;
      if ('finding' in fileRead) return undefined;
      const file = tree.files[place] as (typeof tree.files)[number];
      manifests[place] = manifestFile(file, fileRead.text);
      this.#texts.set(file.absolute, fileRead.text);
      read.push(file.display);
    }
    this.#last = { ...last, manifests };
    await prepareCel(
      places.map((place) => (manifests[place] as ManifestFile).text),
      this.#definitions,
    );
    const result = this.#cache.loadChanged(manifests, read);
    return this.#result(result, [...tree.findings], last.files, manifests, read, tree.unrendered);
  }

  /** The read's result: the load's, with the walk's and reads' findings and the files. */
  #result(
    result: CachedLoadResult,
    findings: readonly Finding[],
    files: string[] | undefined,
    manifests: readonly ManifestFile[],
    read: readonly string[],
    unrendered: readonly UnrenderedSource[],
  ): ReadResult {
    // A path that does not exist, or a file that could not be read, is the whole story: "no
    // manifest files found" would mislead.
    const missing = [...findings, ...result.findings].some((f) => WHOLE_FILE_FAILURES.has(f.code));
    const loadFindings = missing
      ? result.findings.filter((f) => f.code !== 'empty-input')
      : result.findings.map((f) => (f.code === 'empty-input' ? saidSetAside(f, unrendered) : f));
    const { skipKinds, rejectKinds, kubernetesVersion } = this.#options;
    if ((skipKinds?.length ?? 0) + (rejectKinds?.length ?? 0) > 0) {
      const builtins = kubernetesVersion === null ? undefined : BuiltinKinds.of(kubernetesVersion);
      loadFindings.push(
        ...unknownKindFilters(this.#options, result.documents, result.registry, builtins),
      );
    }
    return withChanges(
      {
        definitions: result.definitions,
        registry: result.registry,
        // Gathered when first read (a watch round that applies the changes never reads it).
        get resources() {
          return result.resources;
        },
        get documents() {
          return result.documents;
        },
        findings: withRenderedOrigins([...findings, ...loadFindings], manifests).sort(
          compareFindings,
        ),
        parsed: result.parsed,
        resolved: result.resolved,
        files: files ?? manifests.map((m) => m.path),
        read,
        unrendered,
      },
      result.changes,
    );
  }
}

/** A found file with its text, as a load takes it. */
function manifestFile(file: FoundFile, text: string): ManifestFile {
  const { display: path, appliedBy } = file;
  return appliedBy === undefined ? { path, text } : { path, text, appliedBy };
}

/** What is set aside because it is a manifest only once a tool renders it, or a test reads it. */
const RENDERED_KINDS = new Set<UnrenderedKind>([
  'helm-chart',
  'kustomization',
  'kustomize-input',
  'chainsaw-test',
  'policy-test',
  'test-assertion',
]);

/**
 * "No manifest files found" where the walk set files aside says which: a directory of charts or
 * kustomizations (or JSON that is no manifest) alone is not an empty directory.
 */
function saidSetAside(finding: Finding, unrendered: readonly UnrenderedSource[]): Finding {
  if (unrendered.length === 0) return finding;
  const SHOWN = 3;
  const named = unrendered
    .slice(0, SHOWN)
    .map((u) => `${u.path} (${UNRENDERED_NAMES[u.kind][0]})`)
    .join(', ');
  const more = unrendered.length > SHOWN ? ` and ${unrendered.length - SHOWN} more` : '';
  const rendered = unrendered.some((u) => RENDERED_KINDS.has(u.kind));
  return createFinding({
    ...finding,
    code: 'empty-input',
    message: `${finding.message}; set aside${rendered ? ' as manifests only once rendered' : ''}: ${named}${more}`,
  });
}

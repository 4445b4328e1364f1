/**
 * Runs a CommonJS script compiled with a V8 code cache: the bytecode of every function the
 * script ran, saved after a run and given to V8 on the next, so that a process does not parse
 * and compile the same megabytes of code again. Node 20 has no compile cache for modules
 * (`module.enableCompileCache` is 22.1+), so the worker's code is built as one script
 * (`scripts/build.mjs`) and run here, with `vm.Script`'s `cachedData`.
 *
 * The cache is kept per user in the temporary directory, a file per script content (V8 itself
 * checks only the length of the source), per name (a command's own functions) and per V8; saving one
 * deletes the caches of other contents of the script at the same place (an upgrade's leftovers). A directory that
 * others can write is not used: its files would be run as cosi's code.
 */
import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Script } from 'node:vm';
import { privateDirectory } from '../loaders/private-directory.js';
import { writeCacheFile } from '../loaders/cache-file.js';
import { pruneCacheDirectory } from '../loaders/cache-pruning.js';
import { textHash } from '../loaders/text-hash.js';

/**
 * The most files the code cache directory keeps: an install has some ten (a cache per command,
 * the side files); another install, a checkout run from its own path, or another Node version
 * adds its own, and one no longer run would stay for good.
 */
const MOST_CACHE_FILES = 120;

/** Options of {@link runCachedScript}. */
export interface CachedScriptOptions {
  /** Which run's functions the cache holds (a command's name): one cache file per name. */
  readonly name: string;
  /**
   * What the script's `__cosiImport(specifier)` calls do: the script's own `import()` would need
   * `--experimental-vm-modules` on Node 20, so the build turns them into this call.
   */
  readonly importModule: (specifier: string) => Promise<unknown>;
  /** Where cache files are kept; by default a directory of the user's in the temporary one. */
  readonly directory?: string;
  /**
   * What names the script's content, computed by whoever knows it: the build's hash of a script
   * it wrote, or an installed file's version (see `installedFileKey`). The cache is then keyed by
   * it, and the content is not hashed on every run (with Node's crypto module, some 5 ms to load).
   */
  readonly contentHash?: string;
  /**
   * Node's modules the script requires as it loads but may never use (a package's top-level
   * `require("node:crypto")` for a feature cosi turns off): each is given to it as a stand-in
   * that loads the module at its first use.
   */
  readonly lazyBuiltins?: readonly string[];
  /**
   * The V8 the cache is for (`process.versions.v8` by default): each keeps its own caches, so
   * that two Node versions run in turn (a version manager, a CI matrix on one machine) do not
   * each refuse and rewrite the other's cache at every start.
   */
  readonly engine?: string;
}

/** A script that ran, its exports, and the saving of its cache. */
export interface CachedScript<Exports> {
  readonly exports: Exports;
  /** Whether V8 took the cache (false on a first run, or after a change of V8 or its flags). */
  readonly cacheUsed: boolean;
  /**
   * Saves the cache with every function compiled so far (those it took from a cache too), when
   * the run had none to use, or when it reached more than the run that made the one it used:
   * `reach` counts what a run ran (the modules it initialized), so that a cache made by a run
   * that stopped early (a config error, `--help`) is made again, whole, by the first run that
   * goes further. A cache that cannot be written is left unwritten.
   */
  saveCache(reach?: number): void;
  /**
   * Where a file kept beside the cache, for this content of the script, goes (`name` is its own
   * part of the name): removed with the caches when the script changes. `undefined` when there
   * is no directory to keep files in.
   */
  sideFile(name: string): string | undefined;
}

/** The SHA-256 of `text`, hex; `node:crypto` is loaded only by a run that needs it. */
function sha256(text: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');
}

/**
 * `require`, except that each of `lazy` (Node's own modules) is a stand-in that loads it at its
 * first use. A bundler's interop reads `__esModule` of what it requires: that alone loads nothing.
 */
function withLazyBuiltins(require: NodeJS.Require, lazy: readonly string[]): NodeJS.Require {
  if (lazy.length === 0) return require;
  const standIn = (id: string): object => {
    let loaded: Record<PropertyKey, unknown> | undefined;
    const load = (): Record<PropertyKey, unknown> =>
      (loaded ??= require(id) as Record<PropertyKey, unknown>);
    return new Proxy(
      {},
      {
        get: (_, key) => (key === '__esModule' && loaded === undefined ? undefined : load()[key]),
        has: (_, key) => key in load(),
        ownKeys: () => Reflect.ownKeys(load()),
        getOwnPropertyDescriptor: (_, key) => {
          const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
          return descriptor && { ...descriptor, configurable: true };
        },
      },
    );
  };
  const standIns = new Map(lazy.map((id) => [id, standIn(id)]));
  const lazyRequire = (id: string): unknown => standIns.get(id) ?? (require(id) as unknown);
  // `resolve`, `cache` and the rest are the real require's.
  return Object.setPrototypeOf(lazyRequire, require) as NodeJS.Require;
}

/** The directory of the caches: `given`, or the user's in the temporary one; if private. */
function cacheDirectory(given: string | undefined): string | undefined {
  return privateDirectory(
    given ?? path.join(tmpdir(), `cosi-code-cache-${process.getuid?.() ?? 'user'}`),
  );
}

/**
 * What the names of a script's cache files start with. The script's place and the V8 that runs
 * it are part of it: two installs of cosi, and two Node versions, keep their own caches (a save
 * removes only its own stale ones).
 */
function cachePrefix(file: string, engine = process.versions.v8): string {
  return `${path.basename(file)}-${textHash(`${file}\0${engine}`)}-`;
}

function sideFileIn(directory: string, prefix: string, hash: string, side: string): string {
  return path.join(directory, `${prefix}${hash.slice(0, 16)}-${side.replace(/[^\w.-]/g, '_')}`);
}

/**
 * The file `side` kept beside the caches of the script `file` whose content hash is
 * `contentHash` (as {@link CachedScript.sideFile} names it), found without reading the script:
 * removed with its caches when the script changes. `undefined` when there is no private
 * directory to keep it in.
 */
export function scriptSideFile(
  file: string,
  contentHash: string,
  side: string,
  options: Pick<CachedScriptOptions, 'directory' | 'engine'> = {},
): string | undefined {
  const directory = cacheDirectory(options.directory);
  return directory && sideFileIn(directory, cachePrefix(file, options.engine), contentHash, side);
}

/** Reads `file` if it is there. */
function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Runs the CommonJS script `file` (with `require`, `module`, `exports`, `__filename`,
 * `__dirname` and `__cosiImport`) and returns its exports.
 */
export function runCachedScript<Exports>(
  file: string,
  options: CachedScriptOptions,
): CachedScript<Exports> {
  const bytes = readFileSync(file);
  // A script of ASCII alone (the build writes one) is read as Latin-1, a copy of its bytes,
  // where UTF-8 would decode it into a string of twice the size.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const directory = cacheDirectory(options.directory);
  const hash = (options.contentHash ?? sha256(source)).slice(0, 16);
  const name = options.name.replace(/[^\w-]/g, '_');
  const prefix = cachePrefix(file, options.engine);
  const cacheFile = directory && path.join(directory, `${prefix}${hash}-${name}.v8c`);
  // A cache file is the reach of the run that made it (4 bytes) and V8's data.
  const saved = cacheFile === undefined ? undefined : readIfThere(cacheFile);
  const kept = saved !== undefined && saved.length > 4 ? saved : undefined;
  const keptReach = kept?.readUInt32LE(0) ?? 0;
  const cachedData = kept?.subarray(4);
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __cosiImport) {${source}\n})`,
    { filename: file, ...(cachedData === undefined ? {} : { cachedData }) },
  );
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as Exports };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    withLazyBuiltins(createRequire(file), options.lazyBuiltins ?? []),
    module,
    file,
    path.dirname(file),
    options.importModule,
  );
  return {
    exports: module.exports,
    cacheUsed,
    sideFile: (side) => directory && sideFileIn(directory, prefix, hash, side),
    saveCache: (reach = 0) => {
      if (cacheFile === undefined || (cacheUsed && reach <= keptReach)) return;
      const header = Buffer.alloc(4);
      header.writeUInt32LE(Math.min(Math.max(reach, 0), 0xffffffff) >>> 0);
      if (!writeCacheFile(cacheFile, Buffer.concat([header, script.createCachedData()]))) return;
      try {
        for (const other of readdirSync(path.dirname(cacheFile))) {
          // Other contents' caches, and an older cosi's (`.v8cache`, without the reach).
          const stale = !other.startsWith(`${prefix}${hash}-`) || other.endsWith('.v8cache');
          if (other.startsWith(prefix) && stale) {
            rmSync(path.join(path.dirname(cacheFile), other), { force: true });
          }
        }
      } catch {
        // Stale caches left: the next save removes them.
      }
      // Other installs' and Node versions' caches: the latest written are kept.
      pruneCacheDirectory(path.dirname(cacheFile), MOST_CACHE_FILES, (name) =>
        name.startsWith(prefix),
      );
    },
  };
}

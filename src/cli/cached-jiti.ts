/**
 * jiti, which loads a project's config, compiled with a V8 code cache (see `cached-script.ts`):
 * a command that loads a config compiled jiti's 190 KB bundle again at every start. jiti's entry
 * (`lib/jiti.cjs`) is a few lines around that bundle (`dist/jiti.cjs`), which it calls with the
 * host's functions; here are those lines, the bundle run by `runCachedScript`.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as Jiti from 'jiti';
import type { ConfigLoader } from '../loaders/load-config.js';
import { jitiPackage } from '../loaders/jiti-package.js';
import { textHash } from '../loaders/text-hash.js';
import { runCachedScript, type CachedScript } from './cached-script.js';

/** What jiti's bundle exports: `createJiti`, given the host's functions. */
type CreateJitiWithHost = (
  id: string,
  options: Jiti.JitiOptions,
  host: {
    readonly onError: (error: unknown) => never;
    readonly nativeImport: (specifier: string) => Promise<unknown>;
    readonly createRequire: typeof createRequire;
  },
) => Jiti.Jiti;

let bundle: CachedScript<CreateJitiWithHost> | undefined;

/**
 * jiti, its bundle run with a code cache (kept in `directory`, by default `runCachedScript`'s);
 * for `useConfigLoader`.
 */
export function loadJitiWithCodeCache(directory?: string): ConfigLoader {
  const require = createRequire(import.meta.url);
  const { root, version } = jitiPackage();
  const bundleFile = path.join(root, 'dist/jiti.cjs');
  const loaded = runCachedScript<CreateJitiWithHost>(bundleFile, {
    name: 'jiti',
    importModule: (specifier) => import(specifier),
    // The installed file's version, not a hash of its 190 KB: no crypto module to load.
    contentHash: installedFileKey(bundleFile, version),
    // jiti requires them as it loads: crypto for the names of its own cache's files (cosi keeps
    // the transpiled files itself, see `transpile` in load-config.ts, and turns that cache off),
    // v8 for the errors of its import resolver only.
    lazyBuiltins: ['node:crypto', 'node:v8'],
    ...(directory === undefined ? {} : { directory }),
  });
  bundle = loaded;
  /** jiti's own transpiler, for a caller that gives none (cosi's `loadConfig` gives its own). */
  const babel = (options: Jiti.TransformOptions): Jiti.TransformResult =>
    (
      require(path.join(root, 'dist/babel.cjs')) as (
        o: Jiti.TransformOptions,
      ) => Jiti.TransformResult
    )(options);
  return {
    createJiti: (id, options = {}) =>
      loaded.exports(id, options.transform ? options : { ...options, transform: babel }, {
        onError: (error) => {
          throw error;
        },
        nativeImport: (specifier) => import(specifier),
        createRequire,
      }),
  };
}

/**
 * What names the content of an installed package's file: the package's version, the file's
 * size and its modification time (an edit in place changes them), hashed.
 */
export function installedFileKey(file: string, version: string): string {
  const { size, mtimeMs } = statSync(file);
  return textHash(`${version}\0${size}\0${mtimeMs}`);
}

/** Whether the last load of jiti took its code cache. */
export function jitiCacheUsed(): boolean {
  return bundle?.cacheUsed ?? false;
}

/** Saves jiti's code cache, when this run compiled it (see `CachedScript.saveCache`). */
export function saveJitiCache(): void {
  bundle?.saveCache();
}

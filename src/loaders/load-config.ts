import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import type * as Jiti from 'jiti';
import * as path from 'node:path';
import { didYouMean } from './did-you-mean.js';
import {
  cosiNamedImports,
  missingModuleOf,
  missingModuleProblem,
  wrongEntryPointHint,
} from './cosi-import-hints.js';
import { frameInProject } from './stack-frames.js';
import { localImportHint, mayBeUndefinedImport } from './local-import-hints.js';
import { ConfigError } from './config-error.js';
import { CONFIG_FILE_NAMES } from './config-file-names.js';
import { findConfigKeysInFile } from './config-key-site.js';
import { shorten } from './shorten.js';
import { nameUnexpectedToken } from './unexpected-token.js';
import { pointImportsAtTypeScript } from './typescript-imports.js';
import { jitiPackage } from './jiti-package.js';
import { privateDirectory } from './private-directory.js';
import { withTranspileCache, type Transpile } from './transpile-cache.js';
import { parseSchemaLocations } from './kubernetes/schema-location.js';
import { parseKubernetesRelease } from './kubernetes/kubernetes-release.js';
import {
  normalizeDefinition,
  type ConfigDefinition,
  type ProjectConfig,
} from './project-config.js';
import type { ResourceDefinition } from '../engine/resource/definition.js';
import { isSafeError, messageOfThrown, readSafely } from '../engine/thrown-value.js';

export { ConfigError } from './config-error.js';

/** File names looked for in a manifest directory, in this order. */
export { CONFIG_FILE_NAMES };

/** The keys a config object may have. */
const CONFIG_KEYS = [
  'definitions',
  'controllers',
  'setup',
  'manifests',
  'ignore',
  'definitionFiles',
  'schemaLocations',
  'kubernetesVersion',
] as const;

/** A loaded config, its definitions validated. */
export interface LoadedConfig {
  readonly file: string;
  readonly config: ProjectConfig;
  readonly definitions: ResourceDefinition[];
  /**
   * The project's own scripts the load ran: the config and the modules it imports (those it
   * transpiled, not an installed package's), which `watch` follows. Absent: the config alone.
   */
  readonly sources?: readonly string[];
}

/**
 * The first config file in `dir`, if any. Only a regular file counts: a FIFO or a device of that
 * name would block the read forever.
 */
export async function findConfig(dir: string): Promise<string | undefined> {
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = path.join(dir, name);
    try {
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // not there: try the next name
    }
  }
  return undefined;
}

/** What loads configs: jiti's `createJiti`. */
export type ConfigLoader = Pick<typeof Jiti, 'createJiti'>;

let jitiModule: ConfigLoader | undefined;
/** How jiti is loaded: by `require` unless a runner chose another way (see {@link useConfigLoader}). */
let loadJiti = (): ConfigLoader =>
  // Required, not imported: an import of its CommonJS bundle would first have Node scan all of
  // it for its export names.
  createRequire(import.meta.url)('jiti') as ConfigLoader;

/**
 * Loads what `loadConfig` loads configs with (jiti; the TypeScript transpiler it brings is loaded
 * only for a file not in its cache), once. A caller that times the config's own code calls it
 * first: loading cosi's tools is not the config's time.
 */
export function prepareConfigLoader(): ConfigLoader {
  return (jitiModule ??= loadJiti());
}

/**
 * Has `prepareConfigLoader` load jiti with `load` (the CLI's worker compiles it with a code cache,
 * see `cached-jiti.ts`), if jiti is not loaded yet.
 */
export function useConfigLoader(load: () => ConfigLoader): void {
  loadJiti = load;
}

/** Options of `loadConfig`. */
export interface LoadConfigOptions {
  /**
   * Modules the config's imports resolve to, whether or not the project has them installed:
   * the CLI passes `{ cosi: <the running engine> }` so that controllers and the engine share
   * one copy of every class.
   */
  readonly modules?: Readonly<Record<string, unknown>>;
  /**
   * Runs cosi's own part of a load: transpiling a file that is not in the cache, which the
   * first time loads the transpiler (1.5 MB of code). A caller that bounds the time of the
   * config's own code runs it outside that bound. By default it just runs.
   */
  readonly ownWork?: <T>(work: () => T) => T;
}

/**
 * Where transpiled config files are kept between runs (see `withTranspileCache`): a directory
 * of the user's, used only when it is private, as a file found there is run as the config.
 */
const TRANSPILED_CACHE = path.join(tmpdir(), `cosi-transpiled-${process.getuid?.() ?? 'user'}`);

/** jiti's own transpiler (what it uses when given none) with its outputs kept, made on first use. */
let keptTranspile: Transpile | undefined;

/**
 * Transpiles a config file: jiti's transpiler, loaded on the first file not kept from an earlier
 * run, then cosi's pointing of `.js` imports at `.ts` files, which depends on the files there
 * now and so runs every time. (jiti's own cache is off: it names its files by a hash from Node's
 * crypto module, some 5 ms of every start to load.)
 */
const transpile = (options: Jiti.TransformOptions): Jiti.TransformResult => {
  keptTranspile ??= (() => {
    const require = createRequire(import.meta.url);
    const { root, version } = jitiPackage();
    let babel: Transpile | undefined;
    return withTranspileCache(
      (given) => (babel ??= require(path.join(root, 'dist/babel.cjs')) as Transpile)(given),
      privateDirectory(TRANSPILED_CACHE),
      `jiti@${version}`,
    );
  })();
  // Without comments: babel keeps each statement on its line (retainLines) only as far as it
  // can, and a file's leading comment, moved after the imports it was attached to, pushed the
  // statements after them down by its length (a top-level throw on line 13 reported on line 16).
  const result = keptTranspile({ ...options, babel: { ...options.babel, comments: false } });
  return options.filename === undefined
    ? result
    : { ...result, code: pointImportsAtTypeScript(result.code, options.filename) };
};

/**
 * Loads `cosi.config.ts` (or `.mts`, `.js`, `.mjs`) without a build step.
 * @throws ConfigError with the file and the cause.
 */
export async function loadConfig(
  file: string,
  options: LoadConfigOptions = {},
): Promise<LoadedConfig> {
  // jiti (and the TypeScript transpiler it brings) is loaded only by a command that loads a config.
  const { createJiti } = prepareConfigLoader();
  const sources = new Set<string>([path.resolve(file)]);
  const jiti = createJiti(file, {
    virtualModules: { ...options.modules },
    // A fresh evaluation on every load (watch mode re-loads an edited config); transpiled output
    // is kept on disk by `transpile`, not by jiti.
    moduleCache: false,
    fsCache: false,
    interopDefault: false,
    transform: (transformOptions) => {
      const source = transformOptions.filename;
      if (source !== undefined && !isInstalled(source)) sources.add(path.resolve(source));
      return options.ownWork
        ? options.ownWork(() => transpile(transformOptions))
        : transpile(transformOptions);
    },
  });
  let namespace: unknown;
  try {
    namespace = await jiti.import(file);
  } catch (error) {
    const { problem, line, col, module } = describeLoadError(error, file, options.modules, sources);
    throw new ConfigError(file, problem, {
      cause: error,
      ...(line !== undefined ? { line, col } : {}),
      ...(module !== undefined ? { file: module } : {}),
    });
  }
  if (typeof namespace !== 'object' || namespace === null || !('default' in namespace)) {
    throw new ConfigError(
      file,
      'the config has no default export (write `export default defineConfig({ ... })`)',
    );
  }
  let config: unknown;
  try {
    config = await Promise.resolve(namespace.default);
  } catch (error) {
    throw new ConfigError(file, `cannot load the config: ${messageOfThrown(error)}`, {
      cause: error,
    });
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new ConfigError(
      file,
      `the default export must be an object, not ${describeValue(config)} (write \`export default defineConfig({ ... })\`)`,
    );
  }
  // The config is read once, here, into a plain object: a getter or a Proxy trap of the user's
  // that throws is a configuration error now, not a crash later.
  let plain: Record<string, unknown>;
  const problems: ConfigProblem[] = [];
  let definitions: ResourceDefinition[];
  try {
    plain = snapshotConfig(config as Record<string, unknown>);
    definitions = checkConfig(plain, problems);
  } catch (error) {
    throw new ConfigError(
      file,
      `the default export cannot be read: ${messageOfThrown(error)} (write \`export default defineConfig({ ... })\`)`,
      { cause: error },
    );
  }
  explainUndefinedImports(plain, problems, file, [...sources]);
  if (problems.length > 0) {
    // Each problem at its key in the file, where the source writes one.
    const places = await findConfigKeysInFile(
      file,
      problems.map((p) => p.key),
    );
    throw new ConfigError(
      file,
      problems.map((p, i) => {
        const at = places[i];
        return at === undefined ? { message: p.message } : { message: p.message, at };
      }),
    );
  }
  return { file, config: plain, definitions, sources: [...sources].sort() };
}

/**
 * Says which import made a value of the config undefined (`controllers: [totalControler]`,
 * imported under a name its module does not export): on the problems that got one, and for a
 * `setup` that is undefined, which would otherwise leave its controllers out without a word.
 */
function explainUndefinedImports(
  config: Record<string, unknown>,
  problems: ConfigProblem[],
  file: string,
  sources: readonly string[],
): void {
  let hint: string | undefined;
  const importHint = (): string =>
    (hint ??= localImportHint([file, ...sources], path.dirname(file)));
  for (const [i, problem] of problems.entries()) {
    if (/\bgot undefined$/.test(problem.message) && importHint() !== '') {
      problems[i] = { ...problem, message: problem.message + importHint() };
    }
  }
  if ('setup' in config && config.setup === undefined && importHint() !== '') {
    problems.push({ key: 'setup', message: `\`setup\` is undefined${importHint()}` });
  }
}

/** The config's own keys and values, and copies of its arrays, read once. */
function snapshotConfig(config: Record<string, unknown>): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(config)) {
    const value = config[key];
    plain[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return plain;
}

/** What is wrong with the config object, and the key of the object it is about. */
interface ConfigProblem {
  readonly key: string;
  readonly message: string;
}

/** Whether a script is an installed package's (in a `node_modules`), not the project's own. */
function isInstalled(file: string): boolean {
  return file.split(/[\\/]/).includes('node_modules');
}

/** Every problem of a config object, at once; its definitions, normalised, when it has none. */
function checkConfig(
  config: Record<string, unknown>,
  problems: ConfigProblem[],
): ResourceDefinition[] {
  for (const key of Object.keys(config)) {
    if ((CONFIG_KEYS as readonly string[]).includes(key)) continue;
    const guess = didYouMean(key, CONFIG_KEYS);
    problems.push({
      key,
      message: `unknown key \`${shorten(key)}\`${guess ? ` (did you mean \`${guess}\`?)` : ''}; a config has ${CONFIG_KEYS.map((k) => `\`${k}\``).join(', ')}`,
    });
  }
  const definitions: ResourceDefinition[] = [];
  for (const [i, definition] of arrayEntries(config, 'definitions', problems)) {
    if (definition === null || typeof definition !== 'object' || Array.isArray(definition)) {
      problems.push({
        key: 'definitions',
        message: `definitions[${i}]: expected a resource type (\`defineResource(...)\`) or a definition (an object with a \`type\`), got ${describeValue(definition)}`,
      });
      continue;
    }
    try {
      definitions.push(normalizeDefinition(definition as ConfigDefinition));
    } catch (error) {
      problems.push({
        key: 'definitions',
        message: `definitions[${i}]: ${messageOfThrown(error)}`,
      });
    }
  }
  for (const [i, controller] of arrayEntries(config, 'controllers', problems)) {
    if (!isController(controller)) {
      problems.push({
        key: 'controllers',
        message: `controllers[${i}]: expected a controller (an object with a \`name\` and \`run\` or \`reconcile\`), got ${describeValue(controller)}`,
      });
    }
  }
  if (config.setup !== undefined && typeof config.setup !== 'function') {
    problems.push({
      key: 'setup',
      message: `\`setup\` must be a function, not ${describeValue(config.setup)}`,
    });
  }
  for (const key of ['manifests', 'ignore', 'definitionFiles', 'schemaLocations'] as const) {
    for (const [i, entry] of arrayEntries(config, key, problems)) {
      if (typeof entry !== 'string' || entry === '') {
        problems.push({
          key,
          message: `${key}[${i}]: expected a non-empty string, got ${describeValue(entry)}`,
        });
      }
    }
  }
  for (const [i, entry] of arrayEntries(config, 'schemaLocations', [])) {
    if (typeof entry !== 'string' || entry === '') continue;
    try {
      parseSchemaLocations([entry]);
    } catch (error) {
      problems.push({
        key: 'schemaLocations',
        message: `schemaLocations[${i}]: ${messageOfThrown(error)}`,
      });
    }
  }
  const release = config.kubernetesVersion;
  if (release !== undefined) {
    if (typeof release !== 'string') {
      problems.push({
        key: 'kubernetesVersion',
        message: `\`kubernetesVersion\` must be a string, not ${describeValue(release)}`,
      });
    } else {
      try {
        parseKubernetesRelease(release);
      } catch (error) {
        problems.push({
          key: 'kubernetesVersion',
          message: `kubernetesVersion: ${messageOfThrown(error)}`,
        });
      }
    }
  }
  return definitions;
}

/** The entries of an optional array key; a problem when it is there but not an array. */
function arrayEntries(
  config: Record<string, unknown>,
  key: string,
  problems: ConfigProblem[],
): [number, unknown][] {
  const value = config[key];
  if (value === undefined) return [];
  if (Array.isArray(value)) return [...(value as unknown[]).entries()];
  problems.push({ key, message: `\`${key}\` must be an array, not ${describeValue(value)}` });
  return [];
}

function isController(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.name === 'string' && (typeof c.run === 'function' || typeof c.reconcile === 'function')
  );
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object'
    ? 'an object'
    : typeof value === 'undefined'
      ? 'undefined'
      : `a ${typeof value}`;
}

/**
 * Why a config did not load, as its author would say it: the place in their own code (the config
 * or a module next to it) where it failed, the names as they wrote them (not the transpiled
 * `(0 , _cosi.name)`), and, for a name that `cosi` does not export, the one it likely meant.
 */
function describeLoadError(
  error: unknown,
  file: string,
  modules: Readonly<Record<string, unknown>> | undefined,
  sources: ReadonlySet<string>,
): { problem: string; line?: number; col?: number; module?: string } {
  const syntax = syntaxErrorOf(messageOfThrown(error));
  if (syntax !== undefined) {
    const problem = `cannot load the config: syntax error: ${nameUnexpectedToken(syntax.message, readSource(syntax.file), syntax.line, syntax.col)}`;
    const at = { problem, line: syntax.line, col: syntax.col };
    return syntax.file === file ? at : { ...at, module: syntax.file };
  }
  let message = messageOfThrown(error)
    .replace(/\(0 , _(\w+)\.(\w+)\)/g, (_match, _module: string, name: string) => name)
    // Node's module-not-found error lists the importers: the place below says which one.
    .replace(/\nRequire stack:\n(?:- .*(?:\n|$))*/, '')
    .trimEnd();
  const missing = /^(\w+) is not a (?:function|constructor)$/.exec(message)?.[1];
  const cosi = modules?.cosi;
  const exported = typeof cosi === 'object' && cosi !== null ? cosi : undefined;
  if (missing !== undefined && exported !== undefined && !(missing in exported)) {
    const guess = didYouMean(missing, Object.keys(exported));
    message = `${missing} is not exported by 'cosi'${guess ? ` (did you mean ${guess}?)` : ''}`;
  }
  const missingModule = missingModuleOf(message);
  message = (missingModule && missingModuleProblem(missingModule)) ?? message;
  let problem = `cannot load the config: ${message}`;
  const frame = isSafeError(error) ? frameInProject(stackOf(error), path.dirname(file)) : undefined;
  // A name imported from a module of the project that does not export it is undefined here,
  // where Node would have refused the import: the import is what to fix.
  const importHint = mayBeUndefinedImport(message)
    ? localImportHint([...(frame ? [frame.file] : []), file, ...sources], path.dirname(file))
    : '';
  if (frame === undefined) return { problem: problem + importHint };
  problem += importHint;
  const unbound = /^(\w+) is not defined$/.exec(message)?.[1];
  if (unbound !== undefined && exported !== undefined && unbound in exported) {
    problem += misspeltImportHint(frame.file, unbound, Object.keys(exported));
  }
  if (missing !== undefined && exported !== undefined && missing in exported) {
    problem += wrongEntryPointHint(frame.file, missing);
  }
  // Its position in the file (a module that is not there: where it is named, which the
  // transpiled code's frame only comes near, past the end of its line); in the config itself, or
  // in a module it imports, which the finding names.
  const named = missingModule === undefined ? undefined : whereNamed(frame.file, missingModule);
  const at = named ?? { line: frame.line, col: columnIn(frame.file, frame, message) };
  if (frame.file === file) return { problem, ...at };
  const cycle = importsConfigBack(frame.file, file, message)
    ? importCycleHint(frame.file, file)
    : '';
  return { problem: problem + cycle, ...at, module: frame.file };
}

/**
 * A name `cosi` exports that the file uses without importing it, because its import from `cosi`
 * misspells it (`import { definResource }`, then `defineResource(...)`): the import is what to fix.
 */
function misspeltImportHint(file: string, used: string, exported: readonly string[]): string {
  for (const { specifier, names } of cosiNamedImports(file)) {
    if (specifier !== 'cosi') continue;
    for (const imported of names) {
      if (exported.includes(imported)) continue;
      if (didYouMean(imported, [used]) === used) {
        return ` (its import from 'cosi' names ${imported}, which 'cosi' does not export: did you mean ${used}?)`;
      }
    }
  }
  return '';
}

/**
 * Whether a module the config imports failed on a value it imported from the config itself: the
 * config is still loading while its imports run, so what they read of it at their top level (a
 * type defined there, `App.namespace`) is undefined. TypeScript does not see it; the error alone
 * (`Cannot read properties of undefined`) does not say why.
 */
function importsConfigBack(module: string, config: string, message: string): boolean {
  if (
    !/\bundefined\b|before initialization|is not (?:defined|a function|a constructor)/.test(message)
  )
    return false;
  let text: string;
  try {
    text = readFileSync(module, 'utf8');
  } catch {
    return false;
  }
  const stem = (file: string): string => file.replace(/\.(?:[cm]?[jt]s)$/, '');
  // Value imports only: `import type` is erased, so it makes no cycle.
  const imports = /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const [, specifier = ''] of text.matchAll(imports)) {
    if (stem(path.resolve(path.dirname(module), specifier)) === stem(config)) return true;
  }
  return false;
}

/** What to say of a module that imports the config that imports it. */
function importCycleHint(module: string, config: string): string {
  const name = (file: string): string => path.relative(path.dirname(config), file) || file;
  // Kept short: a config problem is cut past 240 characters, and the error's own text comes first.
  return ` (import cycle: ${name(module)} imports ${name(config)}, which imports it: move the types to a module both import)`;
}

/**
 * The column of a frame of the config in its own text. The frame's is the transpiled code's,
 * which writes an imported function's call longer (`(0, _cosi.createTransformController)(`): a
 * function the message names (`createTransformController settings: ...`) called on that line is
 * where its call starts; else a column past the line's end is its first character.
 */
function columnIn(file: string, frame: { line: number; col: number }, message: string): number {
  let line: string | undefined;
  try {
    line = readFileSync(file, 'utf8').split(/\r?\n/)[frame.line - 1];
  } catch {
    return frame.col;
  }
  if (line === undefined) return frame.col;
  const called = /^([A-Za-z_$][\w$]*)\b/.exec(message)?.[1];
  const at = called === undefined ? -1 : line.indexOf(`${called}(`);
  if (at >= 0) return at + 1;
  return frame.col > line.length ? line.search(/\S|$/) + 1 : frame.col;
}

/** Where a quoted module specifier first appears in a file (its opening quote), if it does. */
function whereNamed(file: string, specifier: string): { line: number; col: number } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const at = [`'${specifier}'`, `"${specifier}"`]
    .map((quoted) => text.indexOf(quoted))
    .filter((index) => index >= 0)
    .sort((a, b) => a - b)[0];
  if (at === undefined) return undefined;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return { line, col: at - before.lastIndexOf('\n') };
}

/**
 * The transpiler's refusal of a file that does not parse, as jiti throws it: `ParseError:
 * Unexpected token \n /dir/cosi.config.ts:2:18` (the column counted from 0). The place as a
 * finding gives it (the column from 1) and the message alone.
 */
function syntaxErrorOf(
  message: string,
): { message: string; file: string; line: number; col: number } | undefined {
  const match = /^(?:ParseError|SyntaxError): ([^\n]*?)\s*\n\s*(\S.*):(\d+):(\d+)\s*$/.exec(
    message,
  );
  if (match === null) return undefined;
  const [, text = '', file = '', line = '0', col = '0'] = match;
  return { message: text, file, line: Number(line), col: Number(col) + 1 };
}

/** A file's text, or `undefined` when it cannot be read (the message stays as the parser said it). */
function readSource(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A thrown error's stack, read without running a getter of the user's that may throw. */
function stackOf(error: Error): string | undefined {
  const stack = readSafely(error, 'stack');
  return typeof stack === 'string' ? stack : undefined;
}

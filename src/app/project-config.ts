import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import picomatch from 'picomatch';
import {
  CONFIG_FILE_NAMES,
  ConfigError,
  findConfig,
  loadConfig,
  prepareConfigLoader,
  type LoadedConfig,
} from '../loaders/load-config.js';
import type { Finding } from '../loaders/finding.js';
import { displayPath } from './display-path.js';
import { userCodeWait, withDeadline } from './user-code-deadline.js';
import type { UserCodeMonitor } from './user-code-site.js';

/** Where to look for the project's config. */
export interface ConfigLocation {
  /** Manifest paths (`-f`): the config is looked for from each of them upwards. */
  readonly files: readonly string[];
  /** An explicit config file, or a directory holding one (`--config`). */
  readonly config?: string;
  /** What `config` is called in messages: `--config` (the CLI's flag), or a library's option. */
  readonly configOption?: string;
  readonly cwd: string;
  /**
   * A directory looked from when no path has a config of its own, before the working directory
   * (a scenario's own directory).
   */
  readonly near?: string;
  /** Wall ms the config may take to load (`--timeout`), at most `USER_CODE_WAIT`. */
  readonly timeout?: number;
  /** Told while the config's code runs: a worker's heartbeat. */
  readonly monitor?: UserCodeMonitor;
}

/** The engine module, handed to configs as `cosi`. Imported lazily to keep the barrel acyclic. */
const engineModule = (): Promise<unknown> => import('../index.js');

/**
 * Finds and loads the config: a fresh evaluation every time, so `watch` can call it again after
 * an edit. Looked for as eslint and vitest look for theirs: `--config` (a file, or a directory
 * holding one); otherwise `cosi.config.{ts,mts,js,mjs}` in the directory of each `-f` path and
 * its parents, then in the working directory and its parents, each walk stopping at the
 * repository root (the directory that holds `.git`). Paths whose own configs differ are a
 * `ConfigError`: one run loads one config. No config is not an error: the manifests are then
 * only validated.
 *
 * @throws ConfigError, its paths as the user would write them, when the config cannot be found
 *   or loaded.
 */
export async function loadProjectConfig(
  location: ConfigLocation,
): Promise<LoadedConfig | undefined> {
  const file = await findConfigFile(location);
  if (!file) return undefined;
  const display = displayPath(location.cwd, file);
  const modules = { cosi: await engineModule() };
  prepareConfigLoader();
  const site = { kind: 'config', file: display } as const;
  location.monitor?.enter(site);
  try {
    // A top-level await that never settles would hang the command (or end Node with exit 13).
    return await withDeadline(
      loadConfig(file, {
        modules,
        // Transpiling is cosi's work: never the config's stuck time.
        ownWork: (work) => {
          location.monitor?.leave();
          try {
            return work();
          } finally {
            location.monitor?.enter(site);
          }
        },
      }),
      userCodeWait(location.timeout, site),
      (waited) =>
        new ConfigError(display, `cannot load the config: it did not finish within ${waited}`),
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      throw error.withFile(displayPath(location.cwd, file), (module) =>
        displayPath(location.cwd, module),
      );
    }
    throw error;
  } finally {
    location.monitor?.leave();
  }
}

/** The rules of unknown types that no config could define: Kubernetes' own, a CRD's, a typo's. */
const KUBERNETES_ANSWERS = new Set([
  'removed-api',
  'builtin-kind',
  'kubernetes-kind',
  'missing-crd',
  'tool-kind',
  'invalid-api-version',
  'component-config',
]);

/**
 * Findings as they should read when no config was found: an unknown cosi type then most likely
 * means that the types are defined in a config that was not found, and the finding says so.
 */
export function explainMissingConfig(
  findings: readonly Finding[],
  config: LoadedConfig | undefined,
): Finding[] {
  if (config !== undefined) return [...findings];
  return findings.map((f) =>
    // A Kubernetes kind (`apiVersion` and `kind`) is most likely a CRD's, which the finding names.
    f.code === 'unknown-type' && !KUBERNETES_ANSWERS.has(f.rule ?? '')
      ? {
          ...f,
          message: `${f.message} (no ${CONFIG_FILE_NAMES[0]} was found next to the manifests or above the working directory: pass --config PATH if the type is defined there)`,
        }
      : f,
  );
}

async function findConfigFile(location: ConfigLocation): Promise<string | undefined> {
  if (location.config !== undefined)
    return explicitConfig(location.config, location.cwd, location.configOption);
  const above = new ConfigsAbove();
  // Each path's own config: one check runs one config, so paths that have different ones are
  // refused rather than checked with the first (the other's controllers would never run, and
  // the verdict would depend on the order of the paths).
  const found: { readonly config: string; readonly path: string }[] = [];
  for (const given of location.files) {
    if (given === '-') continue;
    const start = await startOf(location.cwd, given);
    const config = start === undefined ? undefined : await above.from(start);
    if (config !== undefined && !found.some((f) => f.config === config))
      found.push({ config, path: given });
  }
  if (found.length > 1) throw differentConfigs(found, location.cwd);
  const file =
    found[0]?.config ??
    (location.near === undefined ? undefined : await above.from(location.near)) ??
    (await above.from(location.cwd));
  if (file === undefined) return undefined;
  const distrust = await distrustOf(file);
  if (distrust !== undefined) {
    throw new ConfigError(
      displayPath(location.cwd, file),
      `cosi runs no config found by itself that ${distrust}: anyone else could have written it (pass --config ${displayPath(location.cwd, file)} to run it all the same)`,
    );
  }
  return file;
}

/** The directory a path's config is looked for from: its own, a file's, a glob's base. */
async function startOf(cwd: string, given: string): Promise<string | undefined> {
  const full = path.resolve(cwd, given);
  const kind = await kindOf(full);
  if (kind === 'directory') return full;
  if (kind !== undefined) return path.dirname(full);
  // A glob (`-f 'manifests/*.yaml'`, quoted so that cosi expands it): from the directory it
  // looks in, as from the files the shell would have named.
  const base = globBase(given);
  return base === undefined ? undefined : path.resolve(cwd, base);
}

/**
 * The config found from a directory upwards, up to the repository root; each directory looked
 * at once, however many paths (a shell's glob of a thousand files) climb through it.
 */
class ConfigsAbove {
  readonly #known = new Map<string, string | undefined>();

  async from(start: string): Promise<string | undefined> {
    const climbed: string[] = [];
    let config: string | undefined;
    for (const dir of await upToRepositoryRoot(start)) {
      if (this.#known.has(dir)) {
        config = this.#known.get(dir);
        break;
      }
      climbed.push(dir);
      config = await findConfig(dir);
      if (config !== undefined) break;
    }
    for (const dir of climbed) this.#known.set(dir, config);
    return config;
  }
}

/** The refusal of paths whose configs differ, with the two ways to check them. */
function differentConfigs(
  found: readonly { readonly config: string; readonly path: string }[],
  cwd: string,
): ConfigError {
  const configs = found.slice(0, 2).map((f) => `${displayPath(cwd, f.config)} (for ${f.path})`);
  const [, second] = found;
  return new ConfigError(
    displayPath(cwd, second?.config ?? ''),
    `the paths have different configs, ${configs.join(' and ')}, and a run loads one: check each with its own (--each) or name one (--config)`,
  );
}

/**
 * Why a config file found by climbing from the manifests is not to be run, as git refuses a
 * repository of dubious ownership: it is another user's (not the current user's, nor root's), or
 * it or its directory may be written by anyone (a config planted in a shared `/tmp` above the
 * manifests checked there). `undefined`: it may run.
 */
async function distrustOf(file: string): Promise<string | undefined> {
  const [info, dir] = await Promise.all([stat(file), stat(path.dirname(file))]);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid && info.uid !== 0) {
    return `belongs to another user (uid ${String(info.uid)})`;
  }
  if ((info.mode & 0o002) !== 0) return 'anyone may write';
  // A sticky directory (`/tmp`) lets each user replace only their own files.
  if ((dir.mode & 0o002) !== 0 && (dir.mode & 0o1000) === 0)
    return 'is in a directory anyone may write';
  return undefined;
}

async function explicitConfig(given: string, cwd: string, option = '--config'): Promise<string> {
  const full = path.resolve(cwd, given);
  const kind = await kindOf(full);
  if (kind === 'file') return full;
  if (kind === 'directory') {
    const found = await findConfig(full);
    if (found !== undefined) return found;
    throw new ConfigError(`${option}: ${given}`, `no ${CONFIG_FILE_NAMES.join(', ')} in it`);
  }
  throw new ConfigError(
    `${option}: ${given}`,
    kind === undefined ? 'no such file or directory' : 'not a regular file',
  );
}

/** `start` and its parents, up to and including the first that holds `.git`, or the root. */
async function upToRepositoryRoot(start: string): Promise<string[]> {
  const dirs: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    dirs.push(dir);
    if ((await kindOf(path.join(dir, '.git'))) !== undefined) break;
    if (path.dirname(dir) === dir) break;
  }
  return dirs;
}

/** The directory a glob looks in (`manifests` of `manifests/*.yaml`); `undefined`: no glob. */
function globBase(given: string): string | undefined {
  const scan = picomatch.scan(given.split(path.sep).join('/'));
  return scan.isGlob ? scan.base || '.' : undefined;
}

async function kindOf(file: string): Promise<'file' | 'directory' | 'other' | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
  } catch {
    return undefined;
  }
}

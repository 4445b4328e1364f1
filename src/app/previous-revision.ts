/**
 * `--previous REF_OR_DIR`: the previous revision of the manifest tree, for CEL transition rules.
 * A directory is read as the previous revision's manifests. Anything else is a git revision of
 * the repository the working directory is in (`origin/main`, `HEAD~1`): the manifest paths are
 * read at that revision with `git` itself (`ls-tree`, `cat-file`; no git library) into a
 * temporary directory, and loaded from there.
 *
 * The previous revision is loaded with today's definitions: the config's (a config is code: the
 * old one is not run), `--definitions`' and those of today's manifest tree (its CRDs), which win
 * over a definition of the same type in the previous tree, as the API server compares an update
 * with the stored object read through the CRD in force now (defaulted by today's schema). A
 * definition found only in the previous tree still defines its kinds there. The previous
 * revision is not checked again: its CEL rules are not run, and a resource that today's schema
 * refuses is kept (ratcheting is about such old values). Its findings are not reported; a
 * document whose type does not resolve is remembered, so that the resource it was is reported
 * rather than checked as a silent create.
 */

import type { JsonSchemaKinds } from '../loaders/kubernetes/json-schema-kinds.js';
import type { KubernetesRelease } from '../loaders/kubernetes/kubernetes-release.js';
import type * as ChildProcess from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { ResourceDefinition } from '../engine/resource/definition.js';
import { readDefinitionPaths } from '../loaders/definition-paths.js';
import { ConfigError } from '../loaders/load-config.js';
import { readManifests } from '../loaders/manifest-reader.js';
import { STDIN_PATH } from '../loaders/walk-manifest-tree.js';
import { RecordedPriorState, type PriorState } from '../loaders/cel/prior-state.js';

let execFilePromised: typeof ChildProcess.execFile.__promisify__ | undefined;

/**
 * `execFile`, promised. `node:child_process` is loaded by a check of a previous revision that
 * runs `git`, not with this module by every command (some milliseconds of every worker's start).
 */
function execFileAsync(): typeof ChildProcess.execFile.__promisify__ {
  return (execFilePromised ??= promisify(process.getBuiltinModule('node:child_process').execFile));
}

/** What {@link loadPreviousRevision} needs of the current run. */
export interface PreviousRevisionOptions {
  /** The manifest paths of this run, as given (relative to `cwd`); `-` is skipped. */
  readonly paths: readonly string[];
  readonly cwd: string;
  /** The config's and `--definitions`' definitions; those of `paths` are read here. */
  readonly definitions?: readonly ResourceDefinition[];
  readonly ignore?: readonly string[];
  /** The Kubernetes release of the run, whose built-in kinds the previous revision may use. */
  readonly kubernetesVersion?: KubernetesRelease;
  /** The kinds of the run's `--schema-location`, which the previous revision may use too. */
  readonly schemaKinds?: JsonSchemaKinds;
}

/**
 * The specs of the previous revision's resources, by resource key.
 *
 * @throws ConfigError (on `--previous`) when `refOrDir` is neither a directory nor a revision
 *   of the git repository around `cwd`.
 */
export async function loadPreviousRevision(
  refOrDir: string,
  options: PreviousRevisionOptions,
): Promise<PriorState> {
  const dir = path.resolve(options.cwd, refOrDir);
  if (await isDirectory(dir)) {
    return readPrevious([dir], options.cwd, await todaysDefinitions(options));
  }
  const tree = await checkoutPaths(refOrDir, options);
  try {
    return await readPrevious(tree.paths, tree.root, await todaysDefinitions(options));
  } finally {
    await rm(tree.root, { recursive: true, force: true });
  }
}

/**
 * The definitions the previous revision is read with: the given ones, then the valid ones of
 * today's manifest paths; the first of a type wins, as the given ones do in today's load.
 */
async function todaysDefinitions(
  options: PreviousRevisionOptions,
): Promise<PreviousRevisionOptions> {
  const paths = options.paths.filter((p) => p !== STDIN_PATH);
  const read = await readDefinitionPaths(paths, {
    cwd: options.cwd,
    ...(options.ignore === undefined ? {} : { ignore: options.ignore }),
  });
  const byType = new Map<string, ResourceDefinition>();
  for (const definition of [...(options.definitions ?? []), ...read.definitions]) {
    if (!byType.has(definition.id)) byType.set(definition.id, definition);
  }
  return { ...options, definitions: [...byType.values()] };
}

async function readPrevious(
  paths: readonly string[],
  cwd: string,
  options: PreviousRevisionOptions,
): Promise<PriorState> {
  const prior = new RecordedPriorState();
  if (paths.length === 0) return prior;
  await readManifests(paths, {
    cwd,
    definitions: options.definitions ?? [],
    recordPrior: prior,
    ...(options.ignore === undefined ? {} : { ignore: options.ignore }),
    ...(options.schemaKinds === undefined ? {} : { schemaKinds: options.schemaKinds }),
    ...(options.kubernetesVersion === undefined
      ? {}
      : { kubernetesVersion: options.kubernetesVersion }),
  });
  return prior;
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}

async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await execFileAsync()('git', args, {
    cwd,
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  return stdout;
}

/**
 * Writes the files under the manifest paths at `revision` into a temporary directory laid out
 * as the repository; returns it and the paths to load there.
 */
async function checkoutPaths(
  revision: string,
  options: PreviousRevisionOptions,
): Promise<{ root: string; paths: string[] }> {
  let top: string;
  try {
    top = (await git(options.cwd, ['rev-parse', '--show-toplevel'])).trim();
    await git(options.cwd, [
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${revision}^{commit}`,
    ]);
  } catch (error) {
    throw new ConfigError(
      '--previous',
      `${JSON.stringify(revision)} is neither a directory nor a revision of a git repository around ${options.cwd}`,
      { cause: error },
    );
  }
  const root = await mkdtemp(path.join(tmpdir(), 'cosi-previous-'));
  try {
    const paths: string[] = [];
    const inRepo: string[] = [];
    for (const given of options.paths) {
      if (given === '-') continue;
      const relative = path.relative(top, path.resolve(options.cwd, given));
      if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
      inRepo.push(relative === '' ? '.' : relative.split(path.sep).join('/'));
      paths.push(path.join(root, relative));
    }
    if (inRepo.length === 0) return { root, paths: [] };
    const listing = await git(top, [
      'ls-tree',
      '-r',
      '-z',
      '--full-tree',
      revision,
      '--',
      ...inRepo,
    ]);
    const present = new Set<string>();
    for (const entry of listing.split('\0')) {
      const match = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
      if (match === null) continue;
      const [, blob = '', file = ''] = match;
      const target = path.join(root, ...file.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      const { stdout } = await execFileAsync()('git', ['cat-file', 'blob', blob], {
        cwd: top,
        maxBuffer: 1 << 30,
        encoding: 'buffer',
      });
      await writeFile(target, stdout);
      present.add(target);
    }
    // A path that did not exist at that revision has no previous resources.
    const existing = [];
    for (const p of paths) {
      if ([...present].some((file) => file === p || file.startsWith(`${p}${path.sep}`)))
        existing.push(p);
    }
    return { root, paths: existing };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * `cosi check --each A B ...`: a repository of separate applications or environments
 * (`clusters/production/` and `clusters/staging/`, Argo CD's one directory per application)
 * checked as one world per path, in one process and one report. One run of cosi is one world, so
 * the same names in two directories are `duplicate-resource`s there; here each path is loaded,
 * run and converged on its own (with the config found for it), in turn, and the cases of all of
 * them make one result. The `--definitions` of the paths and the JSON Schemas of their schema
 * locations are read (and compiled) once for all of them.
 *
 * In the merged result a case that is not a manifest's (a controller, the convergence run, the
 * config's types) says which path it is of, and a finding of no file is placed at its path, so
 * that the report says which world it is about.
 */

import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Finding } from '../../loaders/finding.js';
import { nodeFileSystem } from '../../loaders/manifest-file-system.js';
import { SharedProjectReads } from '../read-project-manifests.js';
import type { RunProjectOptions } from '../run-project.js';
import type { WorkerFault } from '../worker-fault.js';
import {
  setupFailed,
  type CheckCase,
  type CheckCode,
  type CheckResult,
  type FailurePolicy,
} from './check-result.js';
import { checkProject, type CheckedProject } from './check-project.js';
import { faultCases, withFaultCases, type KnownFault } from './fault-cases.js';
import { failurePolicy, type CheckOptions } from './run-checks.js';

/** One path's world, checked. */
export interface CheckedWorld {
  /** The path as given, which the world's cases name. */
  readonly path: string;
  /** Absent when the world could not be checked: its config did not load, or stopped cosi. */
  readonly run?: CheckedProject['run'];
  readonly result: CheckResult;
  /** What stopped a check of this world before (see `KnownFault`): its controllers were not run. */
  readonly fault?: WorkerFault;
}

/** Every path's world checked in turn, and their cases as one result. */
export interface CheckedWorlds {
  readonly worlds: readonly CheckedWorld[];
  readonly result: CheckResult;
}

/** How the worlds are checked, beside what each check takes. */
export interface EachOptions {
  /** What stopped a check of some of the worlds before (see `KnownFault`). */
  readonly knownFaults?: readonly KnownFault[];
  /** Told each world's path as its check starts. */
  readonly onWorld?: (path: string) => void;
  /**
   * A world that cannot be checked (its config does not load): the findings of its `setup` case,
   * `undefined` for an error that is no such thing (it ends the check).
   */
  readonly setupFailures: (error: unknown) => Finding<CheckCode>[] | undefined;
}

/**
 * Checks each path of `runOptions.files` (a glob: each path it matches) as a project of its own,
 * in order. A world that cannot be checked (a config that does not load) fails its own `setup`
 * case, and the others are checked all the same.
 */
export async function checkEach(
  runOptions: RunProjectOptions,
  checkOptions: CheckOptions,
  { knownFaults = [], onWorld, setupFailures }: EachOptions,
): Promise<CheckedWorlds> {
  const worlds: CheckedWorld[] = [];
  // The same --definitions and schema locations are read once for every world.
  const shared = new SharedProjectReads();
  const paths = await eachPath(runOptions.files, runOptions.cwd);
  for (const path of paths) {
    onWorld?.(path);
    const fault = knownFaults.find((known) => known.world === path)?.fault;
    // The config's own code stopped the worker: it is not loaded again.
    if (fault !== undefined && (fault.kind === 'config' || fault.kind === 'internal')) {
      worlds.push({ path, result: faultCases(fault, undefined), fault });
      continue;
    }
    try {
      const checked = await checkProject(
        {
          ...runOptions,
          files: [path],
          checkedApart: paths.filter((other) => other !== path),
          shared,
          ...(fault === undefined ? {} : { converge: false }),
        },
        checkOptions,
      );
      worlds.push(
        fault === undefined
          ? { ...checked, path }
          : {
              run: checked.run,
              result: withFaultCases(checked.result, fault, checked.run),
              path,
              fault,
            },
      );
    } catch (error) {
      const findings = setupFailures(error);
      if (findings === undefined) throw error;
      worlds.push({ path, result: setupFailed(findings) });
    }
  }
  return { worlds, result: mergeWorlds(worlds, failurePolicy(checkOptions)) };
}

/**
 * The paths, each glob that names no file (`'clusters/*'`, quoted, or from a shell that does not
 * expand it) replaced by what it matches, files and directories (only directories for
 * `'clusters/*\/'`), each a world, as the walk of `cosi check 'm/*'` takes them. A glob that
 * matches nothing stays: its world reports it. A world named twice (`a a/`, `./a`, its absolute
 * path, a glob that matches it, a symlink to it) is checked once, under its first name: checked
 * twice, its cases were each reported twice, under the same name.
 */
async function eachPath(given: readonly string[], cwd: string): Promise<string[]> {
  const paths: string[] = [];
  const seen = new Set<string>();
  const add = (path: string): void => {
    const full = resolve(cwd, path);
    let key: string;
    try {
      key = realpathSync(full);
    } catch {
      key = full;
    }
    if (seen.has(key)) return;
    seen.add(key);
    paths.push(path);
  };
  for (const path of given) {
    // tinyglobby is loaded only for a path that is not there.
    const globs = existsSync(resolve(cwd, path)) ? undefined : await import('tinyglobby');
    if (globs === undefined || !globs.isDynamicPattern(path)) {
      add(path);
      continue;
    }
    const { globMatches } = await import('../../loaders/glob-matches.js');
    const matches = (await globMatches(nodeFileSystem, cwd, path)).paths;
    if (matches.length === 0) add(path);
    else for (const match of matches) add(match);
  }
  return paths;
}

/** The cases of every world, each case not a manifest's naming its world's path. */
export function mergeWorlds(
  worlds: readonly { readonly path: string; readonly result: CheckResult }[],
  policy: FailurePolicy,
): CheckResult {
  const cases: CheckCase[] = [];
  /**
   * What several worlds share is reported once: a config's type check, and a file's findings
   * outside any document (a `--definitions` file's, read once for all).
   */
  const once = new Set<string>();
  const seen = (c: CheckCase): boolean => {
    const key = `${c.check}\n${c.name}\n${JSON.stringify(c.findings)}`;
    if (once.has(key)) return true;
    once.add(key);
    return false;
  };
  for (const { path, result } of worlds) {
    for (const c of result.cases) {
      if (c.check === 'manifests') {
        if (c.resource === undefined && c.name !== '(input)' && seen(c)) continue;
        cases.push({ ...c, findings: c.findings.map((f) => placeAt(f, path)) });
      } else if (c.check === 'types') {
        if (!seen(c)) cases.push(c);
      } else {
        cases.push({
          ...c,
          name: c.name === c.check ? `${c.check} of ${path}` : `${c.name} (${path})`,
          findings: c.findings.map((f) => placeAt(f, path)),
        });
      }
    }
  }
  const unrendered = worlds.flatMap((w) => w.result.unrendered ?? []);
  return { cases, ...policy, ...(unrendered.length > 0 ? { unrendered } : {}) };
}

/** A finding of no file, placed at its world's path. */
function placeAt(finding: Finding<CheckCode>, path: string): Finding<CheckCode> {
  return finding.file === '' ? { ...finding, file: path } : finding;
}

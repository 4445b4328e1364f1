/**
 * `cosi check --each A B ...`: a repository of separate applications or environments
 * (`clusters/production/` and `clusters/staging/`, Argo CD's one directory per application)
 * checked as one world per path, in one process and one report. One run of cosi is one world, so
 * the same names in two directories are `duplicate-resource`s there; here each path is loaded,
 * run and converged on its own (with the config found for it), in turn, and the cases of all of
 * them make one result.
 *
 * In the merged result a case that is not a manifest's (a controller, the convergence run, the
 * config's types) says which path it is of, and a finding of no file is placed at its path, so
 * that the report says which world it is about.
 */

import type { Finding } from '../../loaders/finding.js';
import type { RunProjectOptions } from '../run-project.js';
import type { CheckCase, CheckCode, CheckResult } from './check-result.js';
import { checkProject, type CheckedProject } from './check-project.js';
import type { CheckOptions } from './run-checks.js';

/** One path's world, checked. */
export interface CheckedWorld extends CheckedProject {
  /** The path as given, which the world's cases name. */
  readonly path: string;
}

/** Every path's world checked in turn, and their cases as one result. */
export interface CheckedWorlds {
  readonly worlds: readonly CheckedWorld[];
  readonly result: CheckResult;
}

/**
 * Checks each path of `runOptions.files` as a project of its own, in order. A config that does
 * not load stops them all, as it stops one check.
 *
 * @throws ConfigError as {@link checkProject} does.
 */
export async function checkEach(
  runOptions: RunProjectOptions,
  checkOptions: CheckOptions,
): Promise<CheckedWorlds> {
  const worlds: CheckedWorld[] = [];
  for (const path of runOptions.files) {
    const checked = await checkProject({ ...runOptions, files: [path] }, checkOptions);
    worlds.push({ ...checked, path });
  }
  return { worlds, result: mergeWorlds(worlds, checkOptions.strict) };
}

/** The cases of every world, each case not a manifest's naming its world's path. */
export function mergeWorlds(
  worlds: readonly { readonly path: string; readonly result: CheckResult }[],
  strict: boolean,
): CheckResult {
  const cases: CheckCase[] = [];
  /** A config shared by several paths is type-checked once per run: reported once. */
  const typeCases = new Set<string>();
  for (const { path, result } of worlds) {
    for (const c of result.cases) {
      if (c.check === 'manifests') {
        cases.push({ ...c, findings: c.findings.map((f) => placeAt(f, path)) });
      } else if (c.check === 'types') {
        if (typeCases.has(c.name)) continue;
        typeCases.add(c.name);
        cases.push(c);
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
  return { cases, strict, ...(unrendered.length > 0 ? { unrendered } : {}) };
}

/** A finding of no file, placed at its world's path. */
function placeAt(finding: Finding<CheckCode>, path: string): Finding<CheckCode> {
  return finding.file === '' ? { ...finding, file: path } : finding;
}

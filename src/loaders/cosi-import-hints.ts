/**
 * What a config's import of cosi got wrong, said in cosi's terms: Node's own errors name a
 * `package.json` and an `exports` map (`Package subpath './loader' is not defined by "exports" in
 * .../node_modules/cosi/package.json`), or only the name (`Cannot find module 'cosy'`), and a name
 * imported from the wrong entry point is undefined until it is used (`defineResource is not a
 * function`). Each hint names the entry point to import from.
 */
import { readFileSync } from 'node:fs';
import { didYouMean } from './did-you-mean.js';

/** The modules cosi's package exports (its `exports` map, `./package.json` aside). */
export const COSI_ENTRY_POINTS: readonly string[] = [
  'cosi',
  'cosi/loaders',
  'cosi/testing',
  'cosi/testing/matchers',
];

const ENTRY_POINT_LIST = `${COSI_ENTRY_POINTS.slice(0, -1)
  .map((e) => `'${e}'`)
  .join(', ')} and '${COSI_ENTRY_POINTS.at(-1) ?? ''}'`;

/**
 * The module a load error names as missing, as the config wrote it: `Cannot find module 'x'`, or
 * Node's refusal of a subpath that cosi's `exports` does not list (`cosi/<subpath>`).
 */
export function missingModuleOf(message: string): string | undefined {
  const missing = /^Cannot find module '([^']+)'/.exec(message)?.[1];
  if (missing !== undefined) return missing;
  const subpath =
    /^Package subpath '\.\/([^']+)' is not defined by "exports" in (.*[\\/])package\.json/.exec(
      message,
    );
  if (subpath === null) return undefined;
  const [, name = '', root = ''] = subpath;
  return packageName(`${root}package.json`) === 'cosi' ? `cosi/${name}` : undefined;
}

/**
 * The problem for a module that could not be found, when it is cosi's or meant to be: one of
 * cosi's modules with no cosi installed in the project, a subpath cosi does not have (with the
 * entry points it has), or a name close to `cosi`. `undefined` for any other module: Node's
 * message says it.
 *
 * @example
 * missingModuleProblem('cosi/loader')
 * // "'cosi/loader' is not one of cosi's modules (did you mean 'cosi/loaders'?): it has 'cosi', ..."
 */
export function missingModuleProblem(specifier: string): string | undefined {
  if (COSI_ENTRY_POINTS.includes(specifier)) {
    return `Cannot find module '${specifier}': only 'cosi' comes from the cosi that runs the config; its other modules need cosi installed in the project (as cosi init's last lines say)`;
  }
  if (specifier.startsWith('cosi/')) {
    const guess = didYouMean(specifier, COSI_ENTRY_POINTS);
    const meant = guess === undefined ? '' : ` (did you mean '${guess}'?)`;
    return `'${specifier}' is not one of cosi's modules${meant}: it has ${ENTRY_POINT_LIST}`;
  }
  if (/^[\w.-]+$/.test(specifier) && didYouMean(specifier, ['cosi']) === 'cosi') {
    return `Cannot find module '${specifier}' (did you mean 'cosi'?)`;
  }
  return undefined;
}

/** A clause `import { a, type B } from 'cosi...'` of a file: its module and the names it imports. */
export interface CosiNamedImport {
  /** `cosi` or one of its subpaths (`cosi/testing`). */
  readonly specifier: string;
  readonly names: readonly string[];
}

/** The clauses of `file` that import names from `cosi` or a subpath of it; none when unreadable. */
export function cosiNamedImports(file: string): CosiNamedImport[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const clauses = /\bimport\s*\{([^}]*)\}\s*from\s*['"](cosi(?:\/[^'"]*)?)['"]/g;
  return [...text.matchAll(clauses)].map(([, names = '', specifier = '']) => ({
    specifier,
    names: names
      .split(',')
      .map((entry) => /^\s*(?:type\s+)?(\w+)/.exec(entry)?.[1])
      .filter((name) => name !== undefined),
  }));
}

/**
 * Why `name`, which `cosi` exports, is undefined in `file`: its import names another of cosi's
 * entry points (`import { defineResource } from 'cosi/testing'`). The hint to add, or ''.
 */
export function wrongEntryPointHint(file: string, name: string): string {
  for (const { specifier, names } of cosiNamedImports(file)) {
    if (specifier !== 'cosi' && names.includes(name)) {
      return ` (its import names ${name} from '${specifier}', which does not export it: import it from 'cosi')`;
    }
  }
  return '';
}

function packageName(file: string): string | undefined {
  try {
    const name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

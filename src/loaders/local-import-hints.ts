/**
 * A named import of one of the project's own modules that names nothing the module exports
 * (`import { APP } from './types'`, which exports `App`). Node's ES module loader refuses it
 * before any code runs (`The requested module './types' does not provide an export named
 * 'APP'`); the config's loader, through CommonJS interop, gives the name as undefined instead, and
 * the config fails later, where it is used (`Cannot read properties of undefined (reading
 * 'namespace')`). This finds the import, from the files' text, so the error can name it.
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { didYouMean } from './did-you-mean.js';

/** An import of a name its module does not export. */
export interface MissingLocalImport {
  /** The importing file. */
  readonly file: string;
  /** Where the name is written in the import (1-based). */
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** The module as the import writes it (`'../types'`). */
  readonly specifier: string;
  /** The exported name closest to it, when one is close. */
  readonly guess?: string;
}

/** Reads a file's text; `undefined` when it cannot. */
export type ReadText = (file: string) => string | undefined;

const readText: ReadText = (file) => {
  try {
    return statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The value imports of `file` from a relative module (`./`, `../`) that name something that
 * module does not export. A module whose exports cannot be told from its text (`export * from`,
 * `module.exports`, a destructuring export) is not judged, nor is one that cannot be found (the
 * loader says so itself).
 */
export function missingLocalImports(file: string, read: ReadText = readText): MissingLocalImport[] {
  const source = read(file);
  if (source === undefined) return [];
  const text = blankComments(source);
  const missing: MissingLocalImport[] = [];
  const clauses =
    /\b(import|export)(\s+type)?\s*(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*(['"])(\.{1,2}\/[^'"]*)\4/g;
  for (const clause of text.matchAll(clauses)) {
    const [, , typeOnly, names = '', , specifier = ''] = clause;
    if (typeOnly !== undefined) continue;
    const target = resolveModule(path.dirname(file), specifier, read);
    const exported = target === undefined ? undefined : exportsOf(target.text);
    if (exported === undefined) continue;
    const namesAt = clause.index + clause[0].indexOf('{') + 1;
    for (const entry of names.matchAll(/(?:^|,)(\s*)(type\s+)?([\w$]+)/g)) {
      const [, space = '', entryType, name = ''] = entry;
      if (entryType !== undefined || exported.has(name)) continue;
      const at = namesAt + entry.index + (entry[0].startsWith(',') ? 1 : 0) + space.length;
      const guess = didYouMean(
        name,
        [...exported].filter((e) => e !== 'default'),
      );
      missing.push({
        file,
        ...lineAndColumn(source, at),
        name,
        specifier,
        ...(guess === undefined ? {} : { guess }),
      });
    }
  }
  return missing;
}

/**
 * The first such import among `files`, said as a hint to add to an error's message, naming the
 * import's place relative to `base`; '' when there is none.
 *
 * @example
 * localImportHint(['/p/controllers/total.ts'], '/p')
 * // " (controllers/total.ts:2:10 imports APP from '../types', which exports no APP: did you mean App?)"
 */
export function localImportHint(
  files: readonly string[],
  base: string,
  read: ReadText = readText,
): string {
  for (const file of new Set(files)) {
    const [first] = missingLocalImports(file, read);
    if (first === undefined) continue;
    const where = `${path.relative(base, first.file) || first.file}:${first.line}:${first.col}`;
    const meant = first.guess === undefined ? '' : `: did you mean ${first.guess}?`;
    return ` (${where} imports ${first.name} from '${first.specifier}', which exports no ${first.name}${meant})`;
  }
  return '';
}

/** Whether an error's message may come from a name imported as undefined. */
export function mayBeUndefinedImport(message: string): boolean {
  return /\bundefined\b|is not (?:a function|a constructor|iterable)/.test(message);
}

/** The module an import names, as TypeScript and jiti find it, and its text. */
function resolveModule(
  dir: string,
  specifier: string,
  read: ReadText,
): { file: string; text: string } | undefined {
  const base = path.resolve(dir, specifier);
  const stem = base.replace(/\.([mc]?)js$/, '');
  const ext = /\.([mc]?)js$/.exec(base)?.[1];
  const candidates =
    ext !== undefined
      ? [`${stem}.${ext}ts`, base]
      : [
          base,
          ...['.ts', '.mts', '.js', '.mjs'].map((e) => base + e),
          ...['index.ts', 'index.js'].map((i) => path.join(base, i)),
        ];
  for (const file of candidates) {
    const text = read(file);
    if (text !== undefined) return { file, text };
  }
  return undefined;
}

/** The names a module's text exports, or `undefined` when its text does not tell them all. */
function exportsOf(source: string): Set<string> | undefined {
  const text = blankComments(source);
  if (
    /\bexport\s*\*\s*from\b/.test(text) ||
    /\bexport\s*=/.test(text) ||
    /\bexport\s+(?:declare\s+)?(?:const|let|var)\s*[{[]/.test(text) ||
    /\bexport\s+(?:declare\s+)?(?:const|let|var)\s+[\w$]+[^;\n]*,\s*[\w$]+\s*=/.test(text) ||
    (/\b(?:module\.exports|exports\.[\w$]+)\s*=/.test(text) && !/\bexport\b/.test(text))
  ) {
    return undefined;
  }
  const names = new Set<string>();
  const declared =
    /\bexport\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|const|let|var|interface|type|enum|namespace|module)\s+([\w$]+)/g;
  for (const [, name = ''] of text.matchAll(declared)) names.add(name);
  for (const [, list = ''] of text.matchAll(/\bexport\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const [, local = '', alias] of list.matchAll(
      /(?:^|,)\s*(?:type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?/g,
    )) {
      names.add(alias ?? local);
    }
  }
  for (const [, name = ''] of text.matchAll(/\bexport\s*\*\s*as\s+([\w$]+)/g)) names.add(name);
  for (const [, name = ''] of text.matchAll(/\bexport\s+import\s+([\w$]+)\s*=/g)) names.add(name);
  if (/\bexport\s+default\b/.test(text)) names.add('default');
  return names;
}

/** The text with its comments blanked out (newlines kept), so positions still hold. */
function blankComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, ' '));
}

function lineAndColumn(text: string, index: number): { line: number; col: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, col: index - before.lastIndexOf('\n') };
}

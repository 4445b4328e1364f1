import { readFile } from 'node:fs/promises';

/**
 * What a project's own `tsconfig.json`, which `cosi init` keeps, lacks for cosi's type
 * declarations, said as what to set; undefined when it has what they need or cannot tell. The
 * declarations use `#private` fields and `AggregateError`: a check of them needs a `target` of
 * es2015 or later and a `lib` of es2021 or later (the target's, unless the tsconfig names one),
 * or `skipLibCheck`. Without, `tsc` and `cosi check --typecheck` report errors in cosi's `.d.ts`
 * files, not the user's. A tsconfig that `extends` another may get them from it, and one that is
 * not JSON with comments is none to judge: neither is warned about.
 *
 * @example
 * await keptTsconfigProblem('tsconfig.json') // for `{ "compilerOptions": {} }`:
 * // 'tsconfig.json (kept) has no "skipLibCheck": true, and its "target" is older than ...'
 */
export async function keptTsconfigProblem(
  file: string,
  shownAs = 'tsconfig.json',
): Promise<string | undefined> {
  let config: unknown;
  try {
    config = JSON.parse(withoutComments(await readFile(file, 'utf8')));
  } catch {
    return undefined;
  }
  if (!isObject(config) || config['extends'] !== undefined) return undefined;
  const options = isObject(config['compilerOptions']) ? config['compilerOptions'] : {};
  if (options['skipLibCheck'] === true) return undefined;
  // `#private` needs a target of es2015, `AggregateError` a lib of es2021 (the target's by default).
  const target = esYear(options['target']) ?? 0;
  const lib = options['lib'];
  const libYear = Array.isArray(lib) ? Math.max(0, ...lib.map((l) => esYear(l) ?? 0)) : target;
  if (target >= 2015 && libYear >= 2021) return undefined;
  const older = lib === undefined ? '"target" is' : '"target" and "lib" are';
  const set = lib === undefined ? '"target": "es2022"' : '"target": "es2022" and "es2022" in "lib"';
  return (
    `${shownAs} (kept) has no "skipLibCheck": true, and its ${older} older than cosi's type ` +
    `declarations need (es2015 with an es2021 lib): \`tsc\` and \`cosi check --typecheck\` would ` +
    `report errors inside node_modules/cosi; set "skipLibCheck": true, or ${set}, in its compilerOptions`
  );
}

/** The ECMAScript year a `target` or `lib` entry names (`es6` 2015, `ESNext` any), if one. */
function esYear(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^es(next|6|\d{4})(\.|$)/i.exec(value);
  const version = (match?.[1] ?? '').toLowerCase();
  if (version === '') return undefined;
  return version === 'next' ? Number.POSITIVE_INFINITY : version === '6' ? 2015 : Number(version);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON with comments as `tsc` reads a tsconfig, made JSON: comments and trailing commas out,
 * strings (a `"$schema": "https://..."`) untouched.
 */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end + 1;
    } else if (text.startsWith('//', i) || text.startsWith('/*', i)) {
      i = pastComment(text, i);
    } else {
      // A trailing comma (only blanks and comments between it and the bracket) is dropped.
      if (!(char === ',' && /[}\]]/.test(text[pastBlanks(text, i + 1)] ?? ''))) out += char;
      i++;
    }
  }
  return out;
}

/** Where the comment at `at` ends: a line comment at the line's end, a block comment after its close. */
function pastComment(text: string, at: number): number {
  if (text.startsWith('//', at)) {
    const end = text.indexOf('\n', at);
    return end < 0 ? text.length : end;
  }
  const end = text.indexOf('*/', at + 2);
  return end < 0 ? text.length : end + 2;
}

/** Where the blanks and comments from `at` end. */
function pastBlanks(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    if (/\s/.test(text[i] as string)) i++;
    else if (text.startsWith('//', i) || text.startsWith('/*', i)) i = pastComment(text, i);
    else break;
  }
  return i;
}

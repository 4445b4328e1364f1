import { readFile } from 'node:fs/promises';

/**
 * Where a config's source writes a key of its object (`manifests: [`, `'setup':`): the line and
 * column of the first one outside a line comment, for an error about that key's value. A guess
 * from the text, not from the parsed code: a key that comes from a spread or a shorthand
 * (`{ controllers }`) is not found, and the error then names the file alone.
 */
export function findConfigKey(
  source: string,
  key: string,
): { line: number; col: number } | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(^|[\\s{,])((['"\`]?)${escaped}\\3\\s*:)`);
  const lines = source.split('\n');
  for (const [index, text] of lines.entries()) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const col = match.index + (match[1] ?? '').length;
    const comment = text.indexOf('//');
    if (comment >= 0 && comment < col) continue;
    if (/^\s*\*/.test(text)) continue;
    return { line: index + 1, col: col + 1 };
  }
  return undefined;
}

/**
 * {@link findConfigKey} of each of `keys` in the config file, read once (same order); all
 * `undefined` when it cannot be read.
 */
export async function findConfigKeysInFile(
  file: string,
  keys: readonly string[],
): Promise<({ line: number; col: number } | undefined)[]> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch {
    return keys.map(() => undefined);
  }
  return keys.map((key) => findConfigKey(source, key));
}

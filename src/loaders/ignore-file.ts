import { readFile } from 'node:fs/promises';
import * as path from 'node:path';

/** The file whose lines say what manifest walks skip, in `.gitignore` syntax. */
export const IGNORE_FILE = '.cosiignore';

/**
 * The patterns of `.cosiignore` in `dir` (blank lines and `#` comments left out); none when there
 * is no such file.
 */
export async function readIgnoreFile(dir: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path.join(dir, IGNORE_FILE), 'utf8');
  } catch {
    return [];
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

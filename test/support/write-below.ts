import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/** Writes `text` as `file` (a relative path) below `dir`, with the directories it is in. */
export async function writeBelow(dir: string, file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
}

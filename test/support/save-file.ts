import { rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

let saves = 0;

/**
 * Saves `text` as `file` the way editors do: written whole beside it under a hidden name, then
 * renamed over it. For tests that edit a file a running `cosi watch` / `get -w` / `run --watch`
 * reads: `writeFile` truncates the file, then writes it, and on a loaded machine a watcher can
 * read it in between (empty) and print a round the test did not make.
 */
export async function saveFile(file: string, text: string): Promise<void> {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${String(process.pid)}.${String(++saves)}.saving`,
  );
  await writeFile(temporary, text);
  await rename(temporary, file);
}

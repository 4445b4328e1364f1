/**
 * The main thread's share of a command that runs once in a worker: while the worker starts (a
 * Node start of its own) and loads the project's config, the main thread, idle until the
 * worker's output comes, reads and parses the manifests the command line names, and gives the
 * worker the parses (see `src/loaders/preparsed-manifests.ts`). The worker takes a file's parse
 * only if it reads the same text; it parses itself whatever is not there when it needs it, so
 * nothing here can change a run's outcome, only how soon it comes.
 */
import { stat } from 'node:fs/promises';
import { ignorePatterns } from '../loaders/ignore-file.js';
import { nodeFileSystem } from '../loaders/manifest-file-system.js';
import { parseManifest } from '../loaders/parse-manifest.js';
import { toTransfer, type ParseTransfer } from '../loaders/parse-transfer.js';
import { readManifestFile } from '../loaders/read-manifest-files.js';
import { STDIN_PATH, walkManifestTree } from '../loaders/walk-manifest-tree.js';
import { parseCommand, stringsOf, type ParsedCommand } from './worker-run.js';

/**
 * How much text the main thread parses ahead, at most: the start of a small project's run is
 * what this speeds up; a large tree's parse is the worker's, as before, and the main thread
 * holds no large copy of it.
 */
export const PREPARSE_BYTES = 4 * 1024 * 1024;

/**
 * The parses of the manifest files `command` names (its `-f` and path arguments, with the
 * ignore patterns the run uses, less those the config adds), in load order, until
 * {@link PREPARSE_BYTES} of text. Never throws: what cannot be read or walked is left to the run,
 * which reports it.
 */
export async function preparseManifests(
  command: ParsedCommand,
  cwd: string,
  budget = PREPARSE_BYTES,
): Promise<ParseTransfer[]> {
  const paths = command.manifestPaths.filter((p) => p !== STDIN_PATH);
  if (paths.length === 0) return [];
  const parses: ParseTransfer[] = [];
  try {
    const ignore = await ignorePatterns({ cwd, ignore: stringsOf(command.flags.ignore) });
    const tree = await walkManifestTree(paths, { cwd, ignore });
    let left = budget;
    for (const file of tree.files) {
      // A file past the budget is not read either (a manifest may be 64 MiB).
      if ((await stat(file.absolute)).size > left) break;
      const read = await readManifestFile(nodeFileSystem, file);
      if (!('text' in read)) continue;
      left -= read.text.length;
      parses.push(toTransfer(parseManifest(read.text, file.display), read.text));
    }
  } catch {
    // The run walks, reads and parses for itself, and says what went wrong.
  }
  return parses;
}

/** {@link preparseManifests} of the command line `argv` (none when it does not parse). */
export async function preparseCommandLine(
  argv: readonly string[],
  cwd: string,
): Promise<ParseTransfer[]> {
  try {
    const command = await parseCommand(argv);
    return command === undefined ? [] : await preparseManifests(command, cwd);
  } catch {
    return [];
  }
}

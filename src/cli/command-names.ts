/**
 * The words a command line may start with, told without loading the CLI (this module imports
 * nothing): the commands of the table (`program.ts`'s `COMMAND_NAMES`), commander's `help`, the
 * `completion` command, and the help flags. A test keeps it equal to the table.
 */
export const COMMAND_WORDS: ReadonlySet<string> = new Set([
  'apply',
  'get',
  'diff',
  'check',
  'test',
  'graph',
  'report',
  'explain',
  'watch',
  'run',
  'init',
  '__complete',
  'version',
  'completion',
  'help',
  '--help',
  '-h',
]);

/**
 * The name of the main thread's code cache for the line `argv` (see `cli-entry.ts`): its
 * command's, or one for every line that starts with anything else, so that a mistyped command
 * leaves no cache of its own.
 */
export function mainCacheName(argv: readonly string[]): string {
  const first = argv[0];
  return first !== undefined && COMMAND_WORDS.has(first) ? `main-${first}` : 'main';
}

/**
 * The text of a help request (`cosi --help`, `cosi check -h`, `cosi help get`), kept from the run
 * that printed it, so that the next request prints it without loading the CLI: the text is a
 * function of the command definitions (the script's content, which names the file it is kept
 * in: see `scriptSideFile`), the line, and what commander reads of the terminal (whether stdout
 * is one, its width, whether it has colors, the color variables). The file is removed with the
 * code caches when the script changes.
 *
 * Part of the process's entry (`cli-entry.ts`, Node's modules only).
 */
import { readFileSync } from 'node:fs';
import { writeCacheFile } from '../loaders/cache-file.js';
import { COMMAND_WORDS } from './command-names.js';

/** What commander's help reads of the process. */
export interface HelpOutput {
  readonly isTTY: boolean;
  /** The terminal's width, when stdout is one. */
  readonly columns: number | undefined;
  /** Whether the terminal has colors (`hasColors()`), when stdout is one. */
  readonly hasColors: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The variables commander's color choice reads. */
const COLOR_VARIABLES = ['NO_COLOR', 'FORCE_COLOR', 'CLICOLOR_FORCE'] as const;

/** How many texts a memo keeps (lines, widths): the oldest go first. */
const KEPT = 64;

/** A help request's memo: its text when kept, and the saving of it after a run. */
export interface HelpMemo {
  readonly text: string | undefined;
  /** Keeps `text`, the whole output of a run that ended with exit code 0 and said nothing on stderr. */
  save(text: string): void;
}

/**
 * Whether `argv` asks for help and nothing else: `--help`, `-h`, `help`, `help <command>`,
 * `<command> --help`, `<command> -h` (a command of the table: a mistyped one is an error).
 */
export function isHelpRequest(argv: readonly string[]): boolean {
  const command = (word: string | undefined): boolean =>
    word !== undefined && COMMAND_WORDS.has(word) && !word.startsWith('-') && word !== 'help';
  const help = (word: string | undefined): boolean => word === '--help' || word === '-h';
  if (argv.length === 1) return help(argv[0]) || argv[0] === 'help';
  if (argv.length !== 2) return false;
  return (argv[0] === 'help' && command(argv[1])) || (command(argv[0]) && help(argv[1]));
}

/**
 * The memo of `argv` when it is a help request and there is a `file` to keep texts in (see
 * `scriptSideFile`); `undefined` otherwise.
 */
export function openHelpMemo(
  argv: readonly string[],
  output: HelpOutput,
  file: string | undefined,
): HelpMemo | undefined {
  if (file === undefined || !isHelpRequest(argv)) return undefined;
  const key = JSON.stringify([
    argv,
    output.isTTY ? [output.columns ?? null, output.hasColors] : 'not a terminal',
    COLOR_VARIABLES.map((name) => output.env[name] ?? null),
  ]);
  const text = readTexts(file).get(key);
  return {
    text,
    save: (printed) => {
      const texts = readTexts(file);
      texts.delete(key);
      texts.set(key, printed);
      const kept = [...texts].slice(-KEPT);
      writeCacheFile(file, JSON.stringify(kept));
    },
  };
}

/** The texts kept in `file`, oldest first; none when it is missing or not what a save writes. */
function readTexts(file: string): Map<string, string> {
  let entries: unknown;
  try {
    entries = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return new Map();
  }
  const texts = new Map<string, string>();
  if (!Array.isArray(entries)) return texts;
  for (const entry of entries as unknown[]) {
    if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string') {
      texts.set(entry[0], entry[1]);
    }
  }
  return texts;
}

/**
 * Parses of manifest files made ahead of a run, on the process's main thread while the worker a
 * command runs in was starting (see `src/cli/preparse-manifests.ts`), given to the worker by a
 * message: the manifest cache takes a file's parse from here instead of parsing it again.
 *
 * A parse is a pure function of a file's text, its name and the limits: one is taken only for
 * the same three, and only once; anything else is parsed here as ever. So a parse from here is
 * exactly the one the run would have made, only sooner.
 */
import { parseManifest } from './parse/parse-manifest.js';
import type { ParsedManifest, ParseTextOptions } from './parsed-manifest.js';
import { isParseOf, revivedParse, type ParseTransfer } from './parse-transfer.js';

/** The parses given and not yet taken, by file as shown. */
const given = new Map<string, ParseTransfer>();

/**
 * Where parses made on another thread come from while this thread loads: asked for a file as
 * the load reaches it, synchronously; `undefined` when this thread is to parse it itself (the
 * source may then tell the other thread not to).
 */
export interface PreparseSource {
  take(file: string): ParseTransfer | undefined;
}

let source: PreparseSource | undefined;

/** Keeps `parses` for the loads of this thread to take (a later parse of a file replaces one). */
export function providePreparsedManifests(parses: readonly ParseTransfer[]): void {
  for (const parse of parses) given.set(parse.file, parse);
}

/** Asks `from` for each file's parse that was not given (`undefined`: none any more). */
export function providePreparseSource(from: PreparseSource | undefined): void {
  source = from;
}

/**
 * `parseManifest(written, file, limits)`: the parse given for that file when it was made of the
 * same text with the same limits, else a parse made now.
 */
export function parseManifestOrTakePreparsed(
  written: string,
  file: string,
  limits: ParseTextOptions = {},
): ParsedManifest {
  let parse = given.get(file);
  if (parse !== undefined) given.delete(file);
  else parse = source?.take(file);
  if (parse !== undefined && isParseOf(parse, written, file, limits)) return revivedParse(parse);
  return parseManifest(written, file, limits);
}

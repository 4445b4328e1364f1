import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A place in a source file, from a stack trace. */
export interface StackFrame {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/**
 * The first frame of a stack that is in the project's own files (below `dir`, not in
 * `node_modules`): where the user's code failed. The config loader keeps line numbers of the
 * TypeScript it transpiles, so the place is the one the author sees.
 */
export function frameInProject(stack: string | undefined, dir: string): StackFrame | undefined {
  for (const match of (stack ?? '').matchAll(
    /\(?((?:\/|[A-Za-z]:\\)[^():\s]+):(\d+):(\d+)\)?$/gm,
  )) {
    const [, frameFile = '', line = '0', col = '0'] = match;
    const frame = { file: frameFile, line: Number(line), col: Number(col) };
    if (isInProject(frame, dir)) return frame;
  }
  return undefined;
}

/**
 * The first frame of `error` in the project's own files. A host may have installed an
 * `Error.prepareStackTrace` that rewrites frames through source maps of its own: vitest maps a
 * file it transformed through that transform's map. That fits the files the host ran itself (a
 * test file that defines a controller in a config object), whose recorded lines are those of the
 * transform's output; it does not fit the copy cosi's loader ran of a file (whose lines are the
 * file's own), where the place would point at another statement. So when the stack has not been
 * formatted yet, its frames are read as recorded, a frame of a file `ranByLoader` keeps its
 * recorded place and another gets the place the host's hook gives it, and the text the hook
 * makes is kept as the error's stack; else the text is all there is.
 */
export function errorFrameInProject(
  error: Error,
  dir: string,
  ranByLoader: (file: string) => boolean = () => true,
): StackFrame | undefined {
  const sites = recordedSites(error);
  if (sites === undefined) return frameInProject(stackText(error), dir);
  for (const site of sites) {
    const [frame] = toFrame(site);
    if (frame === undefined || !isInProject(frame, dir)) continue;
    return ranByLoader(frame.file) ? frame : (hostMappedFrame(site, dir) ?? frame);
  }
  return undefined;
}

/** Whether `frame` is in the project's own files: below `dir`, not in `node_modules`. */
export function isInProject(frame: { readonly file: string }, dir: string): boolean {
  if (frame.file.includes(`${path.sep}node_modules${path.sep}`)) return false;
  const relative = path.relative(dir, frame.file);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** What a host installs as `Error.prepareStackTrace`: V8 calls it to format a stack. */
type StackHook = (this: unknown, error: Error, callSites: NodeJS.CallSite[]) => unknown;

/** Call sites read from errors whose stacks were formatted here, for the next time they are asked. */
const sitesRead = new WeakMap<Error, NodeJS.CallSite[]>();

/**
 * The call sites V8 recorded for `error`, read while its stack is formatted for the first time
 * (through the hook in place, whose text becomes the stack as it would have) and kept for the
 * next call; `undefined` when no hook is installed (the text is then V8's own) or the stack was
 * formatted before it was asked here.
 */
function recordedSites(error: Error): NodeJS.CallSite[] | undefined {
  const hooked = Error as { prepareStackTrace?: StackHook };
  const hook = hooked.prepareStackTrace;
  if (hook === undefined) return undefined;
  const known = sitesRead.get(error);
  if (known !== undefined) return known;
  let sites: NodeJS.CallSite[] | undefined;
  hooked.prepareStackTrace = function (this: unknown, formatted, callSites) {
    if (formatted === error) sites = callSites;
    return hook.call(this, formatted, callSites);
  };
  try {
    stackText(error);
  } finally {
    hooked.prepareStackTrace = hook;
  }
  if (sites !== undefined) sitesRead.set(error, sites);
  return sites;
}

/** The place the host's stack hook gives one call site (through its source maps), if in `dir`. */
function hostMappedFrame(site: NodeJS.CallSite, dir: string): StackFrame | undefined {
  const hook = (Error as { prepareStackTrace?: StackHook }).prepareStackTrace;
  if (hook === undefined) return undefined;
  try {
    const text = hook.call(Error, new Error(), [site]);
    return typeof text === 'string' ? frameInProject(text, dir) : undefined;
  } catch {
    return undefined;
  }
}

function toFrame(site: NodeJS.CallSite): StackFrame[] {
  const name = site.getFileName() ?? site.getScriptNameOrSourceURL();
  const line = site.getLineNumber();
  const col = site.getColumnNumber();
  const file = scriptFile(name);
  return file === undefined || line === null || col === null ? [] : [{ file, line, col }];
}

/**
 * The file of a script as V8 names it (a path, or a `file:` URL for an ES module); `undefined`
 * for one that is no file (Node's own `node:` modules, an `eval`).
 */
export function scriptFile(name: string | null | undefined): string | undefined {
  if (!name) return undefined;
  const file = name.startsWith('file:') ? fileURLToPath(name) : name;
  return path.isAbsolute(file) ? file : undefined;
}

function stackText(error: Error): string | undefined {
  try {
    const stack: unknown = error.stack;
    return typeof stack === 'string' ? stack : undefined;
  } catch {
    return undefined;
  }
}

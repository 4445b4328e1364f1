import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Finding } from '../../loaders/finding.js';
import { displayPath } from '../display-path.js';
import { formatDuration } from '../format-duration.js';
import type { CheckCase, CheckCode } from './check-result.js';
import { spawnTethered } from './tethered-process.js';

/** How to get the compiler, said when the project has none. */
export const TYPESCRIPT_MISSING =
  "--typecheck type-checks the config with the project's own TypeScript, and none is installed here: npm install --save-dev typescript";

/** How long the project's compiler may take before it is stopped and the case fails. */
export const TYPECHECK_WAIT_MS = 10 * 60_000;

/** Options of {@link typecheckConfig}. */
export interface TypecheckOptions {
  /** Wall milliseconds the compiler may take ({@link TYPECHECK_WAIT_MS} by default). */
  readonly waitMs?: number;
}

/**
 * `cosi check --typecheck`: type-checks the config (and what it imports) with the TypeScript
 * compiler the project has installed, resolved from the config's directory as its own tools
 * would, never one cosi brings. It runs that compiler's own `tsc` as a process of its own, so
 * every TypeScript a project may have works alike: 5.x's compiler in JavaScript and 7.x's native
 * one (whose package has no compiler API to import). The project's nearest `tsconfig.json` gives
 * the options, with the config as the only root; without one, strict NodeNext defaults. Every
 * error is a `type-error` finding at its file:line:col; no TypeScript in the project is one
 * finding saying how to get it; a compiler that cannot run or does not finish in time is a
 * `typecheck-failed`.
 */
export async function typecheckConfig(
  configFile: string,
  cwd: string,
  options: TypecheckOptions = {},
): Promise<CheckCase> {
  const display = displayPath(cwd, configFile);
  const caseOf = (findings: Finding<CheckCode>[]): CheckCase => ({
    check: 'types',
    name: display,
    findings,
  });
  const failed = (message: string): CheckCase =>
    caseOf([finding('typecheck-failed', message, display, 0, 0)]);
  const compiler = await findProjectCompiler(path.dirname(configFile));
  if (compiler === undefined) {
    return caseOf([finding('typescript-missing', TYPESCRIPT_MISSING, display, 0, 0)]);
  }
  if (typeof compiler === 'string') return failed(compiler);
  const project = await rootProject(configFile);
  try {
    const ran = await runCompiler(compiler.tsc, project, options.waitMs ?? TYPECHECK_WAIT_MS);
    const typescript = `TypeScript ${compiler.version}`;
    if (ran.kind === 'timeout') {
      return failed(
        `${typescript} did not finish the type check within ${formatDuration(ran.waitedMs)}: it was stopped`,
      );
    }
    if (ran.kind === 'failed') return failed(`${typescript} could not run: ${ran.message}`);
    const findings = parseCompilerOutput(ran.output).map((d) => {
      const message = `${d.message} (TS${String(d.code)})`;
      const file = d.file === undefined ? undefined : path.resolve(project.directory, d.file);
      if (file === undefined) return finding('type-error', message, display, 0, 0);
      // The generated project's own lines are not the user's: said at the tsconfig it extends.
      if (file === project.file) {
        return finding(
          'type-error',
          message,
          displayPath(cwd, project.extends ?? configFile),
          0,
          0,
        );
      }
      return finding('type-error', message, displayPath(cwd, file), d.line, d.col);
    });
    if (findings.length === 0 && ran.exitCode !== 0) {
      // An exit without a diagnostic it could read: what the compiler said, as it said it.
      const said = ran.output.trim().split('\n').slice(0, 5).join(' ').trim();
      return failed(
        `${typescript} exited with code ${String(ran.exitCode)}${said === '' ? '' : `: ${said}`}`,
      );
    }
    return caseOf(findings);
  } finally {
    await rm(project.cleanup, { recursive: true, force: true });
  }
}

/** The project's TypeScript: its version and its `tsc` script. */
interface ProjectCompiler {
  readonly version: string;
  readonly tsc: string;
}

/**
 * The project's `typescript`, as `require` from `dir` finds it (its package.json, then its
 * `tsc`): `undefined` when it has none, a message when its package cannot be used.
 */
async function findProjectCompiler(dir: string): Promise<ProjectCompiler | string | undefined> {
  let manifestFile: string;
  try {
    manifestFile = createRequire(path.join(dir, 'noop.js')).resolve('typescript/package.json');
  } catch {
    return undefined;
  }
  let manifest: { version?: unknown; bin?: unknown };
  try {
    manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as typeof manifest;
  } catch (error) {
    return `cannot read TypeScript's package (${manifestFile}): ${(error as Error).message}`;
  }
  const bin = manifest.bin;
  const tsc =
    typeof bin === 'string'
      ? bin
      : typeof bin === 'object' && bin !== null
        ? (bin as Record<string, unknown>).tsc
        : undefined;
  if (typeof tsc !== 'string') return `TypeScript's package (${manifestFile}) has no tsc`;
  return {
    version: typeof manifest.version === 'string' ? manifest.version : 'unknown',
    tsc: path.resolve(path.dirname(manifestFile), tsc),
  };
}

/**
 * The project the compiler is given: a tsconfig of cosi's whose only root is the config. With a
 * `tsconfig.json` of the project's (the nearest above the config, as `tsc` finds one), it extends
 * it from beside it, so that every option and every default that depends on where a tsconfig is
 * (`typeRoots`, relative paths) is what the project's own `tsc` would take; without one, it holds
 * strict NodeNext defaults and is kept in a directory of its own. Either way it is removed after
 * the check (`cleanup`).
 */
interface RootProject {
  /** The generated tsconfig. */
  readonly file: string;
  readonly directory: string;
  /** The project's tsconfig it extends, if any. */
  readonly extends?: string;
  /** What to remove after the check. */
  readonly cleanup: string;
}

/**
 * Options a type check of `configFile` needs whatever the project's tsconfig says: no output, no
 * build info, and a root directory that holds it (a project's `rootDir: "src"` is about its
 * build's output, and would refuse a config beside `src/`); a JavaScript config is checked as
 * JavaScript is (`checkJs`: its JSDoc types and cosi's).
 */
function checkOnly(configFile: string): Record<string, unknown> {
  return {
    noEmit: true,
    emitDeclarationOnly: false,
    composite: false,
    incremental: false,
    rootDir: path.parse(configFile).root,
    ...(/\.[cm]?js$/.test(configFile) ? { allowJs: true, checkJs: true } : {}),
  };
}

/** Options without a tsconfig: as strict as a new project's. */
const DEFAULTS = {
  strict: true,
  target: 'es2022',
  module: 'nodenext',
  moduleResolution: 'nodenext',
  skipLibCheck: true,
  types: [],
};

async function rootProject(configFile: string): Promise<RootProject> {
  const tsconfig = await nearestTsconfig(path.dirname(configFile));
  if (tsconfig !== undefined) {
    const directory = path.dirname(tsconfig);
    const file = path.join(
      directory,
      // Hidden, and named for what it is, for the moment it is there.
      `.cosi-typecheck-${String(process.pid)}-${Math.random().toString(36).slice(2)}.tsconfig.json`,
    );
    const text = {
      extends: `./${path.basename(tsconfig)}`,
      compilerOptions: checkOnly(configFile),
      files: [configFile],
      include: [],
    };
    try {
      await writeFile(file, `${JSON.stringify(text, null, 2)}\n`, { flag: 'wx' });
      return { file, directory, extends: tsconfig, cleanup: file };
    } catch {
      // A directory cosi may not write to: extended from a temporary directory instead (only
      // `typeRoots` left to its default differs).
      const temporary = await mkdtemp(path.join(tmpdir(), 'cosi-typecheck-'));
      const elsewhere = path.join(temporary, 'tsconfig.json');
      await writeFile(elsewhere, JSON.stringify({ ...text, extends: tsconfig }));
      return { file: elsewhere, directory: temporary, extends: tsconfig, cleanup: temporary };
    }
  }
  const directory = await mkdtemp(path.join(tmpdir(), 'cosi-typecheck-'));
  const file = path.join(directory, 'tsconfig.json');
  await writeFile(
    file,
    JSON.stringify({
      compilerOptions: { ...DEFAULTS, ...checkOnly(configFile) },
      files: [configFile],
    }),
  );
  return { file, directory, cleanup: directory };
}

/** The nearest `tsconfig.json` in `dir` or above it, as `tsc` looks for one. */
async function nearestTsconfig(dir: string): Promise<string | undefined> {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'tsconfig.json');
    try {
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // not here: look above
    }
    if (path.dirname(at) === at) return undefined;
  }
}

type CompilerRun =
  | { readonly kind: 'exited'; readonly exitCode: number | null; readonly output: string }
  | { readonly kind: 'timeout'; readonly waitedMs: number }
  | { readonly kind: 'failed'; readonly message: string };

/** Runs `tsc --project` on the generated project, in its directory, for at most `waitMs`. */
function runCompiler(tsc: string, project: RootProject, waitMs: number): Promise<CompilerRun> {
  return new Promise((resolve) => {
    // Tethered: a cosi stopped by a signal (Ctrl-C, SIGTERM) stops the compiler too and removes
    // the tsconfig written beside the project's, which a plain child left running, and in place.
    const { child, stop } = spawnTethered({
      args: [tsc, '--project', project.file, '--pretty', 'false'],
      cwd: project.directory,
      cleanup: project.cleanup,
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const timer = setTimeout(() => {
      stop();
      resolve({ kind: 'timeout', waitedMs: waitMs });
    }, waitMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ kind: 'failed', message: error.message });
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ kind: 'exited', exitCode, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** One error `tsc --pretty false` printed. */
export interface CompilerDiagnostic {
  /** As tsc printed it (relative to its working directory); none for a global error. */
  readonly file?: string;
  readonly line: number;
  readonly col: number;
  readonly code: number;
  readonly message: string;
}

/**
 * The errors in `tsc --pretty false` output: `file(line,col): error TS1234: message`, or
 * `error TS1234: message` for one without a place; a message's further lines (a chain of
 * causes, indented) are joined to it with spaces. Lines of anything else are not errors.
 */
export function parseCompilerOutput(output: string): CompilerDiagnostic[] {
  const diagnostics: CompilerDiagnostic[] = [];
  let last: { -readonly [K in keyof CompilerDiagnostic]: CompilerDiagnostic[K] } | undefined;
  for (const line of output.split(/\r?\n/)) {
    const placed = /^(.+)\((\d+),(\d+)\): error TS(\d+): (.*)$/.exec(line);
    const global = placed === null ? /^error TS(\d+): (.*)$/.exec(line) : null;
    if (placed !== null) {
      const [, file = '', row = '0', col = '0', code = '0', message = ''] = placed;
      last = { file, line: Number(row), col: Number(col), code: Number(code), message };
      diagnostics.push(last);
    } else if (global !== null) {
      const [, code = '0', message = ''] = global;
      last = { line: 0, col: 0, code: Number(code), message };
      diagnostics.push(last);
    } else if (last !== undefined && /^\s+\S/.test(line)) {
      last.message = `${last.message} ${line.trim()}`;
    } else {
      last = undefined;
    }
  }
  return diagnostics;
}

function finding(
  code: CheckCode,
  message: string,
  file: string,
  line: number,
  col: number,
): Finding<CheckCode> {
  return { code, severity: 'error', message, file, line, col, pointer: '' };
}

import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding } from '../../loaders/finding.js';
import { displayPath } from '../display-path.js';
import type { CheckCase, CheckCode } from './check-result.js';

/** The part of the TypeScript compiler API `--typecheck` uses, typed loosely: it is the user's. */
interface TypeScriptApi {
  readonly version: string;
  readonly sys: { fileExists(file: string): boolean; readFile(file: string): string | undefined };
  readonly ModuleKind: { NodeNext: number };
  readonly ModuleResolutionKind: { NodeNext: number };
  readonly ScriptTarget: { ES2022: number };
  readonly DiagnosticCategory: { Error: number };
  findConfigFile(dir: string, exists: (file: string) => boolean): string | undefined;
  getParsedCommandLineOfConfigFile(
    file: string,
    options: object,
    host: object,
  ): { options: Record<string, unknown>; errors: readonly Diagnostic[] } | undefined;
  createProgram(options: { rootNames: readonly string[]; options: object }): object;
  getPreEmitDiagnostics(program: object): readonly Diagnostic[];
  flattenDiagnosticMessageText(text: unknown, newLine: string): string;
}

interface Diagnostic {
  readonly category: number;
  readonly code: number;
  readonly messageText: unknown;
  readonly start?: number;
  readonly file?: {
    readonly fileName: string;
    getLineAndCharacterOfPosition(pos: number): { line: number; character: number };
  };
}

/** How to get the compiler, said when the project has none. */
export const TYPESCRIPT_MISSING =
  "--typecheck type-checks the config with the project's own TypeScript, and none is installed here: npm install --save-dev typescript";

/**
 * `cosi check --typecheck`: type-checks the config (and what it imports) with the TypeScript
 * compiler the project has installed, resolved from the config's directory as its own tools
 * would, never one cosi brings. The project's `tsconfig.json` (the nearest above the config)
 * gives the options; without one, strict NodeNext defaults. Every error is a `type-error`
 * finding at its file:line:col; no TypeScript in the project is one finding saying how to get it.
 */
export async function typecheckConfig(configFile: string, cwd: string): Promise<CheckCase> {
  const display = displayPath(cwd, configFile);
  const ts = await loadProjectTypeScript(path.dirname(configFile));
  if (ts === undefined) {
    return {
      check: 'types',
      name: display,
      findings: [finding('typescript-missing', TYPESCRIPT_MISSING, display, 0, 0)],
    };
  }
  const options = compilerOptions(ts, path.dirname(configFile));
  const program = ts.createProgram({
    rootNames: [configFile],
    options: { ...options.options, noEmit: true },
  });
  const diagnostics = [...options.errors, ...ts.getPreEmitDiagnostics(program)];
  const findings = diagnostics
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => {
      const message = `${ts.flattenDiagnosticMessageText(d.messageText, ' ')} (TS${d.code})`;
      if (d.file === undefined || d.start === undefined) {
        return finding('type-error', message, display, 0, 0);
      }
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return finding(
        'type-error',
        message,
        displayPath(cwd, d.file.fileName),
        line + 1,
        character + 1,
      );
    });
  return { check: 'types', name: display, findings };
}

/** The project's `typescript`, as `require` from `dir` finds it; `undefined` when it has none. */
async function loadProjectTypeScript(dir: string): Promise<TypeScriptApi | undefined> {
  let resolved: string;
  try {
    resolved = createRequire(path.join(dir, 'noop.js')).resolve('typescript');
  } catch {
    return undefined;
  }
  const loaded = (await import(pathToFileURL(resolved).href)) as { default?: TypeScriptApi };
  return loaded.default;
}

/** The nearest `tsconfig.json`'s options, or strict NodeNext defaults. */
function compilerOptions(
  ts: TypeScriptApi,
  dir: string,
): { options: Record<string, unknown>; errors: readonly Diagnostic[] } {
  const file = ts.findConfigFile(dir, (f) => ts.sys.fileExists(f));
  if (file !== undefined) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      file,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    if (parsed !== undefined) return { options: parsed.options, errors: parsed.errors };
  }
  return {
    options: {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    },
    errors: [],
  };
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

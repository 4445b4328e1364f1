import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../..');
let runs = 0;

/**
 * Runs the built CLI; returns its exit code, output and the URLs of every module it loaded
 * (`cosi-script:main:src/...`, or `:worker:`, for a module of the CLI's own script, by the
 * thread that initialized it: see `module-log.mjs`).
 */
export async function cosiLoading(
  args: readonly string[],
  /** A directory for the log. */
  dir: string,
): Promise<{ code: number | null; stdout: string; stderr: string; modules: string[] }> {
  const log = path.join(dir, `modules-${++runs}.log`);
  await writeFile(log, '');
  const child = spawn(
    process.execPath,
    ['--import', path.join(REPO, 'test/support/module-log.mjs'), 'bin/cosi.js', ...args],
    {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      // The code cache of the instrumented CLI script is kept apart (see module-log.mjs).
      env: { ...process.env, COSI_MODULE_LOG: log, TMPDIR: dir },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const modules = (await readFile(log, 'utf8')).split('\n').filter((l) => l !== '');
  return { code, stdout, stderr, modules };
}

/** A module of the CLI's script (`src/...`), as the log names it on `thread` (see `cosiLoading`). */
export const scriptModule = (thread: 'main' | 'worker', source: string): string =>
  `cosi-script:${thread}:${source}`;

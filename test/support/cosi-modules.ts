import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../..');
let runs = 0;

/** Runs the built CLI; returns its exit code, output and the URLs of every module it loaded. */
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
      env: { ...process.env, COSI_MODULE_LOG: log },
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

import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { REPO } from './run-cli.js';

const MESSAGE = 'no manifests given';

/** Runs the real `cosi check` in `cwd`, its stdout and stderr written to the files given. */
async function check(cwd: string, stdoutFile: string, stderrFile: string): Promise<number | null> {
  const out = openSync(stdoutFile, 'a');
  const err = stderrFile === stdoutFile ? out : openSync(stderrFile, 'a');
  try {
    const child = spawn(process.execPath, [path.join(REPO, 'bin/cosi.js'), 'check'], {
      cwd,
      stdio: ['ignore', out, err],
      env: { ...process.env, NO_COLOR: '1' },
    });
    return await new Promise((resolve) => child.on('close', resolve));
  } finally {
    closeSync(out);
    if (err !== out) closeSync(err);
  }
}

const count = (text: string): number => text.split(MESSAGE).length - 1;

it('says why check cannot run once when stderr goes where stdout goes (2>&1), on both when apart', async () => {
  expect(existsSync(path.join(REPO, 'dist/cli/main.js')), 'run npm run build first').toBe(true);
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-shared-output-'));
  try {
    // Outside any project: an empty directory.
    const project = path.join(dir, 'empty');
    await mkdir(project);
    // cosi check > log 2>&1
    const log = path.join(dir, 'log');
    expect(await check(project, log, log)).toBe(2);
    const joined = await readFile(log, 'utf8');
    expect(joined).toContain('cosi init starts one');
    expect(count(joined)).toBe(1);
    // cosi check > report 2> errors: the report holds it, and stderr, which may be all one reads.
    const report = path.join(dir, 'report');
    const errors = path.join(dir, 'errors');
    expect(await check(project, report, errors)).toBe(2);
    expect(count(await readFile(report, 'utf8'))).toBe(1);
    expect(count(await readFile(errors, 'utf8'))).toBe(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** `cosi check` of a named pipe (`mkfifo`), read once as a file given by name is. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCosi } from '../support/cosi-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-named-pipe-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cosi check of a named pipe', () => {
  it('writes the --report of a named pipe it read, not waiting to read it a second time (review gate2 10)', async () => {
    // The report's excerpts opened the pipe a second time, and waited for ever for a writer.
    execFileSync('mkfifo', [path.join(dir, 'p.yaml')]);
    const run = runCosi(['check', 'p.yaml', '--report', 'r.html'], dir, 25_000);
    // Opening for writing waits for the check to open the pipe for reading.
    const writer = await open(path.join(dir, 'p.yaml'), 'w');
    await writer.writeFile(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: default}\ndata: {k: 1}\n',
    );
    await writer.close();
    const r = await run;
    expect(r.stdout).toContain('p.yaml:4:11: error[schema-violation]: must be string');
    expect(r.code).toBe(1);
    expect(await readFile(path.join(dir, 'r.html'), 'utf8')).toContain('must be string');
  });
});

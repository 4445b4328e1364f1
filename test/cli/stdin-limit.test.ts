/**
 * Standard input larger than a manifest file may be (`-f -`): the built CLI reads it in chunks,
 * stops one byte past the limit and reports the `unreadable-file` finding a file that large on
 * disk gets, naming `<stdin>`, instead of holding it all or crashing on a string too long.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_MANIFEST_BYTES } from '../../src/loaders/manifest-size.js';
import { cli, REPO } from './run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-stdin-limit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Lines of a YAML comment: valid YAML of any length. */
const COMMENTS = Buffer.from('# a comment line of a very long manifest\n'.repeat(1600));

it('reports stdin larger than the limit as the finding a file that large gets', async () => {
  expect(existsSync(path.join(REPO, 'dist/cli/main.js')), 'run npm run build first').toBe(true);
  // Node's warnings in this test's process (a listener added per write is a leak); cosi's own
  // would be on its stderr, which must stay empty.
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(`${warning.name}: ${warning.message}`);
  };
  process.on('warning', onWarning);
  const child = spawn(process.execPath, [path.join(REPO, 'bin/cosi.js'), 'check', '-f', '-'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // Three times the limit, unless cosi stops reading first (then the pipe breaks: that is fine).
  child.stdin.on('error', () => undefined);
  let written = 0;
  const state = { closed: false };
  void exited.then(() => (state.closed = true));
  while (written < 3 * MAX_MANIFEST_BYTES && !state.closed && child.stdin.writable) {
    if (!child.stdin.write(COMMENTS)) {
      // Whichever comes first; the other listener is removed, or one would pile up per write.
      await new Promise<void>((resolve) => {
        const done = (): void => {
          child.stdin.off('drain', done);
          child.stdin.off('close', done);
          resolve();
        };
        child.stdin.once('drain', done);
        child.stdin.once('close', done);
      });
    }
    written += COMMENTS.byteLength;
  }
  child.stdin.end();
  const code = await exited;

  // A warning is emitted on the next tick after the write that caused it: all are in by now.
  process.off('warning', onWarning);
  expect(warnings).toEqual([]);
  expect(stderr).toBe('');
  expect(code).toBe(1);
  const onDisk = path.join(dir, 'large.yaml');
  await writeFile(onDisk, '');
  await truncate(onDisk, MAX_MANIFEST_BYTES + 1);
  const disk = await cli(['check', '-f', onDisk]);
  const diskLine = disk.stdout.split('\n').find((line) => line.includes('unreadable-file'));
  expect(diskLine).toContain('larger than');
  expect(stdout.split('\n')).toContain(diskLine?.replaceAll(onDisk, '<stdin>'));
}, 60_000);

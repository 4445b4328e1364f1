import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO } from './run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-pipe-'));
  // Enough output (a few hundred KiB) that the reader closes the pipe while cosi still writes.
  const docs = Array.from(
    { length: 3000 },
    (_, i) => `---
metadata: { type: vm, id: vm-${i} }
spec: { cpus: 2, image: debian }
`,
  );
  await writeFile(path.join(dir, 'many.yaml'), docs.join(''));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('exits quietly when the reader of its output goes away (cosi apply -o yaml | head -2)', async () => {
  const child = spawn(
    process.execPath,
    [
      path.join(REPO, 'bin/cosi.js'),
      'apply',
      '-f',
      path.join(REPO, 'fixtures/minimal/definitions.yaml'),
      '-f',
      dir,
      '-o',
      'yaml',
      '-q',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Read the first chunk, then close the pipe as `head` does.
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(stderr).not.toContain('EPIPE');
  expect(stderr).not.toContain('Error');
  expect(code).toBe(0);
}, 30_000);

it.skipIf(!existsSync('/dev/full'))(
  'exits 2 when its report cannot be written (cosi check -o junit > /dev/full: ENOSPC)',
  async () => {
    await writeFile(
      path.join(dir, 'ok.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ok }\ndata: { x: "1" }\n',
    );
    const full = openSync('/dev/full', 'w');
    try {
      const child = spawn(
        process.execPath,
        [path.join(REPO, 'bin/cosi.js'), 'check', '-f', 'ok.yaml', '-o', 'junit'],
        { cwd: dir, stdio: ['ignore', full, 'pipe'] },
      );
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toContain('ENOSPC');
      expect(code).toBe(2);
    } finally {
      closeSync(full);
    }
  },
  30_000,
);

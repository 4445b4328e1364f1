/**
 * A manifest given as a pipe, as shells give one: `-f <(kustomize build overlays/prod)` names
 * `/dev/fd/63`, and `-f /dev/stdin` the pipe cosi's input comes from. Both are read to their end,
 * once, as kubectl and kubeconform read them (real processes, a real bash).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';

let dir: string;
const COSI = path.join(REPO, 'bin/cosi.js');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-named-pipe-'));
  await writeFile(
    path.join(dir, 'cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\ndata:\n  replicas: 3\n',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs a bash command line in the temporary directory; its output and exit code. */
function bash(line: string): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], {
      cwd: dir,
      env: { ...process.env, COSI: COSI, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  });
}

describe('a manifest given as a pipe', () => {
  it('is read from a process substitution, -f <(cat cm.yaml), and checked at its lines', async () => {
    const run = await bash('node "$COSI" check -f <(cat cm.yaml)');
    expect(run.stdout).toMatch(
      /^\/dev\/fd\/\d+:5:13: error\[schema-violation\]: must be string \(at \/data\/replicas\)$/m,
    );
    expect(run.stdout).toContain('manifests: 1 resource in 1 file: 0 valid, 1 invalid');
    expect(run.code).toBe(1);
  }, 30_000);

  it('is read from /dev/stdin fed by a pipe, and a fixed manifest passes', async () => {
    const run = await bash(
      'sed \'s/replicas: 3/replicas: "3"/\' cm.yaml | node "$COSI" check -f /dev/stdin',
    );
    expect(run.stdout).toContain('manifests: 1 resource in 1 file: 1 valid, 0 invalid');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 30_000);
});

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-cel-on-demand-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the built CLI; returns its exit code, stderr and the URLs of every module it loaded. */
async function cosiLoading(
  args: readonly string[],
  name: string,
): Promise<{ code: number | null; stderr: string; modules: string[] }> {
  const log = path.join(dir, `${name}.log`);
  await writeFile(log, '');
  const child = spawn(
    process.execPath,
    ['--import', path.join(REPO, 'test/support/module-log.mjs'), 'bin/cosi.js', ...args],
    {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, COSI_MODULE_LOG: log },
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const modules = (await readFile(log, 'utf8')).split('\n').filter((l) => l !== '');
  return { code, stderr, modules };
}

const isCel = (url: string): boolean =>
  url.includes('/@bufbuild/cel/') || url.endsWith('/loaders/cel/rule-compiler.js');

describe('CEL is loaded only for definitions that have rules', () => {
  it('cosi apply of a project without rules never loads CEL', async () => {
    const run = await cosiLoading(['apply', '-f', 'fixtures/vm-network', '-q'], 'vm-network');
    expect(run.code).toBe(0);
    // The log works: the CLI's own modules are in it.
    expect(run.modules.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(run.modules.filter(isCel)).toEqual([]);
  }, 60_000);

  it('a definition with rules in the manifests loads CEL, and its rules are checked', async () => {
    const run = await cosiLoading(
      ['apply', '-f', 'fixtures/cel/definitions', '-f', 'fixtures/cel/invalid', '-q'],
      'cel',
    );
    expect(run.stderr).toContain('error[cel-violation]: minNodes must not exceed maxNodes');
    expect(run.code).toBe(1);
    expect(run.modules.some(isCel)).toBe(true);
  }, 60_000);

  it('a rules keyword spelt with escapes, which the readers cannot foresee, is still checked', async () => {
    const file = path.join(dir, 'escaped.yaml');
    await writeFile(
      file,
      `metadata: { type: rd, id: gadgets.example.org }
spec:
  type: Gadgets.example.org
  schema:
    type: object
    "x-kubernetes-validation\\x73":
      - rule: self.size < 10
        message: size must stay under 10
    properties:
      size: { type: integer }
---
metadata: { type: gadget, id: big }
spec: { size: 12 }
`,
    );
    const run = await cosiLoading(['apply', '-f', file, '-q'], 'escaped');
    expect(run.stderr).toContain('error[cel-violation]: size must stay under 10');
    expect(run.code).toBe(1);
  }, 60_000);
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosiLoading, scriptModule } from '../support/cosi-modules.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-cel-on-demand-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const isCel = (url: string): boolean =>
  url.includes('/@bufbuild/cel/') ||
  url.endsWith('/loaders/cel/rule-compiler.js') ||
  url.endsWith(':src/loaders/cel/rule-compiler.ts');

describe('CEL is loaded only for definitions that have rules', () => {
  it('cosi apply of a project without rules never loads CEL', async () => {
    const run = await cosiLoading(['apply', '-f', 'fixtures/vm-network', '-q'], dir);
    expect(run.code).toBe(0);
    // The log works: the CLI's own modules are in it.
    expect(run.modules).toContain(scriptModule('worker', 'src/cli/commands/apply.ts'));
    expect(run.modules.filter(isCel)).toEqual([]);
  }, 60_000);

  it('a definition with rules in the manifests loads CEL, and its rules are checked', async () => {
    const run = await cosiLoading(
      ['apply', '-f', 'fixtures/cel/definitions', '-f', 'fixtures/cel/invalid', '-q'],
      dir,
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
    const run = await cosiLoading(['apply', '-f', file, '-q'], dir);
    expect(run.stderr).toContain('error[cel-violation]: size must stay under 10');
    expect(run.code).toBe(1);
  }, 60_000);
});

/**
 * docs/testing.md's examples run: each `ts` block is written to a temporary module (its
 * `cosi/testing` imports pointed at this repository's source) and imported; the scenario is run
 * by `cosi test`; the failure the page shows is the one `cosi test` prints.
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO, cli } from '../cli/run-cli.js';

const PAGE = path.join(REPO, 'docs/testing.md');
const TESTING = path.join(REPO, 'src/testing');

let dir: string;
let page: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-testing-doc-'));
  page = await readFile(PAGE, 'utf8');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The fenced blocks of a language, in order. */
function blocks(language: string): string[] {
  return [...page.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (m) => m[1] ?? '',
  );
}

it('has the examples this test runs', () => {
  expect(blocks('ts')).toHaveLength(4);
  // The scenario, then a fragment of an expected document with chainsaw expression keys.
  expect(blocks('yaml')).toHaveLength(2);
  expect(blocks('text')).toHaveLength(2);
});

it.each([0, 1, 2, 3])(
  'runs the TypeScript example %i',
  async (index) => {
    const source = (blocks('ts')[index] ?? '')
      .replace(/'cosi\/testing\/matchers'/g, `'${path.join(TESTING, 'register-matchers.ts')}'`)
      .replace(/'cosi\/testing'/g, `'${path.join(TESTING, 'index.ts')}'`);
    expect(source).toContain(TESTING);
    const file = path.join(dir, `example-${index}.ts`);
    await writeFile(file, source);
    await import(file);
  },
  60_000,
);

it('runs the scenario, and it passes every step', async () => {
  await symlink(path.join(REPO, 'fixtures'), path.join(dir, 'fixtures'));
  const scenario = blocks('yaml')[0] ?? '';
  await writeFile(path.join(dir, 'vm-network.cosi-test.yaml'), scenario);
  const { code, stdout } = await cli(['test', 'vm-network.cosi-test.yaml'], { cwd: dir });
  expect(stdout).toBe('scenarios: 1 passed, 0 failed (steps: 9 passed, 0 failed)\n');
  expect(code).toBe(0);
}, 60_000);

it('shows the failures cosi/testing and cosi test print', async () => {
  const [assertion, scenario] = blocks('text');
  const { stdout } = await cli([
    'test',
    'fixtures/scenarios/failing/vm-network-wrong.cosi-test.yaml',
  ]);
  expect(stdout).toContain(scenario);
  const { createTestProject, expectResource } = await import('../../src/testing/index.js');
  const project = await createTestProject({ cwd: REPO, manifests: 'fixtures/vm-network' });
  try {
    await project.converge();
    await expect(
      expectResource(project, 'NetworkConfig', 'web-1', { bridge: 'br-alpine' }),
    ).rejects.toThrow((assertion ?? '').trimEnd());
  } finally {
    await project.close();
  }
}, 60_000);

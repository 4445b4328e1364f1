/**
 * The TypeScript and YAML examples of README.md and docs/*.md run or load, so a page that
 * drifts from the code fails here. A `ts` block is one of two kinds: a config (`export default
 * defineConfig(...)`), loaded the way `cosi apply` loads a `cosi.config.ts` and its controllers
 * registered; or a program ending in `console.log(...); // WHAT IT PRINTS`, written to a module,
 * imported, and checked to print that. docs/testing.md's blocks import `cosi/testing` and are run
 * by testing-doc.test.ts. Every `yaml` block parses as YAML, and those that are whole manifests
 * load: docs/manifests.md's definition and resource pass `cosi check` together, and
 * docs/controllers.md's transform does what the fixture it comes from does.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import * as cosi from '../../src/index.js';
import { loadConfig } from '../../src/loaders/load-config.js';
import { cli } from '../cli/run-cli.js';
import { REPO, allBlocks, blocksOf } from './doc-blocks.js';

/** Pages whose examples a test of their own runs. */
const OWN_TESTS: Readonly<Record<string, string>> = {
  'docs/testing.md': 'test/docs/testing-doc.test.ts',
};

const blocks = allBlocks();
const tsBlocks = blocks.filter((b) => b.language === 'ts' && OWN_TESTS[b.page] === undefined);
const configs = tsBlocks.filter((b) => b.text.includes('export default defineConfig('));
const programs = tsBlocks.filter((b) => !configs.includes(b));
const where = (b: { page: string; line: number }): string => `${b.page}:${b.line}`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-doc-code-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('finds the examples, and a test for the pages that run their own', () => {
  expect(configs.length).toBeGreaterThanOrEqual(1);
  expect(programs.length).toBeGreaterThanOrEqual(4);
  for (const test of Object.values(OWN_TESTS)) expect(existsSync(path.join(REPO, test))).toBe(true);
});

it.each(programs.map((b) => [where(b), b] as const))(
  'runs the program at %s and it prints what its comment says',
  async (at, block) => {
    const expected = /console\.log\(.*\); \/\/ (.*)$/m.exec(block.text)?.[1];
    expect(
      expected,
      `${at}: a ts example ends in console.log(...); // WHAT IT PRINTS`,
    ).toBeDefined();
    const file = path.join(dir, `${at.replace(/[/.:]/g, '-')}.ts`);
    await writeFile(file, block.text);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await import(file);
      expect(log).toHaveBeenCalledTimes(1);
      expect(log.mock.calls[0]?.map(String).join(' ')).toBe(expected);
    } finally {
      log.mockRestore();
    }
  },
  60_000,
);

it.each(configs.map((b) => [where(b), b] as const))(
  'loads the config at %s and registers its definitions and controllers',
  async (at, block) => {
    const file = path.join(dir, at.replace(/[/.:]/g, '-'), 'cosi.config.ts');
    await mkdir(path.dirname(file));
    await writeFile(file, block.text);
    const loaded = await loadConfig(file, { modules: { cosi } });
    const declared = [...block.text.matchAll(/defineResource<[^>]*>\(\{\s*type: '([^']+)'/g)].map(
      (m) => m[1],
    );
    expect(loaded.definitions.map((d) => d.type)).toEqual(declared);
    const runtime = cosi.createRuntime(cosi.createInMemoryState(), {
      clock: new cosi.SimulatedClock(),
    });
    await runtime.register(...(loaded.config.controllers ?? []));
    const names = [...block.text.matchAll(/name: '([^']+)'/g)].map((m) => m[1]);
    expect(runtime.controllerNames()).toEqual(names);
    // A config's setup builds its controllers with the builder: one more each.
    if (loaded.config.setup !== undefined) {
      await loaded.config.setup(runtime);
      const built = block.text.match(/\bcontrollerManagedBy\(runtime\)/g)?.length ?? 0;
      expect(runtime.controllerNames()).toHaveLength(names.length + built);
    }
    await runtime.stop();
  },
  60_000,
);

it.each(blocks.filter((b) => b.language === 'yaml').map((b) => [where(b), b] as const))(
  'parses the YAML at %s',
  (_at, block) => {
    for (const document of parseAllDocuments(block.text)) expect(document.errors).toEqual([]);
  },
);

/** The YAML blocks of a page. */
const yamlOf = (page: string): string[] =>
  blocksOf(page)
    .filter((b) => b.language === 'yaml')
    .map((b) => b.text);

it("checks docs/manifests.md's resource against its definition, and both load", async () => {
  const [resource, definition] = yamlOf('docs/manifests.md');
  const project = path.join(dir, 'manifests-page');
  await mkdir(project);
  await writeFile(path.join(project, 'definitions.yaml'), definition ?? '');
  await writeFile(path.join(project, 'vms.yaml'), resource ?? '');
  const checked = await cli(['check', '-f', '.'], { cwd: project });
  expect(checked.stdout).toMatch(/^manifests: 2 resources in 2 files: 2 valid, 0 invalid$/m);
  expect(checked.code).toBe(0);
  const vm = await cli(['get', 'machine', 'web-1', '-f', '.', '-o', 'jsonpath={.spec.cpus}'], {
    cwd: project,
  });
  expect(vm.stdout.trim()).toBe('2');
}, 60_000);

it("runs docs/controllers.md's transform in its fixture, with the fixture's own outputs", async () => {
  const transform = yamlOf('docs/controllers.md').find((t) => t.includes('Transforms.cosi.dev'));
  const fixture = path.join(REPO, 'fixtures/yaml-transforms');
  const project = path.join(dir, 'transform-page');
  await mkdir(project);
  for (const name of await readdir(fixture)) {
    await copyFile(path.join(fixture, name), path.join(project, name));
  }
  await writeFile(path.join(project, 'transform.yaml'), transform ?? '');
  const args = ['apply', '-f', '.', '-t', 'nic', '-o', 'yaml', '--stable', '-q'];
  const fromPage = await cli(args, { cwd: project });
  const fromFixture = await cli(args, { cwd: fixture });
  expect(fromPage.code).toBe(0);
  expect(fromPage.stdout).toContain('NICs.example.org');
  expect(fromPage.stdout).toBe(fromFixture.stdout);
}, 60_000);

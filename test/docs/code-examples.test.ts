/**
 * The TypeScript and YAML examples of README.md and docs/*.md run or load, so a page that
 * drifts from the code fails here. A `ts` block is one of two kinds: a config (`export default
 * defineConfig(...)`), loaded the way `cosi apply` loads a `cosi.config.ts` and its controllers
 * registered; or a program ending in `console.log(...); // WHAT IT PRINTS`, written to a module,
 * imported, and checked to print that. docs/testing.md's blocks import `cosi/testing` and are run
 * by testing-doc.test.ts. Every `yaml` block parses as YAML.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import * as cosi from '../../src/index.js';
import { loadConfig } from '../../src/loaders/load-config.js';
import { REPO, allBlocks } from './doc-blocks.js';

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
);

it.each(configs.map((b) => [where(b), b] as const))(
  'loads the config at %s and registers its definitions and controllers',
  async (at, block) => {
    const file = path.join(dir, at.replace(/[/.:]/g, '-'), 'cosi.config.ts');
    await mkdir(path.dirname(file));
    await writeFile(file, block.text);
    const loaded = await loadConfig(file, { modules: { cosi } });
    const declared = [...block.text.matchAll(/defineResource<[^>]*>\(\{ type: '([^']+)'/g)].map(
      (m) => m[1],
    );
    expect(loaded.definitions.map((d) => d.type)).toEqual(declared);
    const runtime = cosi.createRuntime(cosi.createInMemoryState(), {
      clock: new cosi.SimulatedClock(),
    });
    await runtime.register(...(loaded.config.controllers ?? []));
    const names = [...block.text.matchAll(/name: '([^']+)'/g)].map((m) => m[1]);
    expect(runtime.controllerNames()).toEqual(names);
    await runtime.stop();
  },
);

it.each(blocks.filter((b) => b.language === 'yaml').map((b) => [where(b), b] as const))(
  'parses the YAML at %s',
  (_at, block) => {
    for (const document of parseAllDocuments(block.text)) expect(document.errors).toEqual([]);
  },
);

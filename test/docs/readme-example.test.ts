/**
 * README.md's code runs: the library example is read out of the README's fenced block, written
 * to a temporary module and imported, so a README that drifts from the code fails here. The
 * config example is loaded the way `cosi apply` loads a `cosi.config.ts`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import * as cosi from '../../src/index.js';
import { loadConfig } from '../../src/loaders/load-config.js';

const README = new URL('../../README.md', import.meta.url);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-readme-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The `ts` fenced block that follows `heading` in README.md. */
async function fencedBlock(heading: string): Promise<string> {
  const readme = await readFile(README, 'utf8');
  const section = readme.indexOf(`\n${heading}\n`);
  expect(section, `README.md has a "${heading}" section`).toBeGreaterThan(-1);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(section));
  if (!block?.[1]) throw new Error(`no ts block after "${heading}" in README.md`);
  return block[1];
}

it.each([
  ['library', '## The library'],
  [
    'cleanupOutputs',
    '### Outputs that follow their inputs: `startTrackingOutputs` / `cleanupOutputs`',
  ],
  ['watchFor', '### Waiting for a resource: `watchFor`'],
  ['garbage collection', '### Garbage collection'],
])('runs the %s example and prints what its comment says', async (name, heading) => {
  const source = await fencedBlock(heading);
  const expected = /console\.log\(.*\); \/\/ (.*)$/m.exec(source)?.[1];
  expect(expected, 'the example says what it prints').toBeDefined();
  const file = path.join(dir, `${name.replace(/ /g, '-')}-example.ts`);
  await writeFile(file, source);
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await import(file);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.map(String).join(' ')).toBe(expected);
  } finally {
    log.mockRestore();
  }
});

it('loads the config example and registers its controllers', async () => {
  const file = path.join(dir, 'cosi.config.ts');
  await writeFile(file, await fencedBlock('## The project config'));
  const loaded = await loadConfig(file, { modules: { cosi } });
  expect(loaded.definitions.map((d) => d.type)).toEqual([
    'VMs.example.org',
    'NetworkConfigs.example.org',
  ]);
  const runtime = cosi.createRuntime(cosi.createInMemoryState(), {
    clock: new cosi.SimulatedClock(),
  });
  await runtime.register(...(loaded.config.controllers ?? []));
  expect(runtime.controllerNames()).toEqual(['VMNetController']);
  await runtime.stop();
});

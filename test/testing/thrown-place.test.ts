import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { createTestProject } from '../../src/testing/index.js';
// Imported as a user's test imports its config for the type handles: vitest then knows a
// source map of its own for this file, and its stack-trace hook maps frames with it.
import { App } from './thrown-place/cosi.config.js';

const DIR = path.join(import.meta.dirname, 'thrown-place');
const CONFIG = path.join(DIR, 'cosi.config.ts');

it("places a controller's error at its line when the test imports the config, as without the import", async () => {
  const lines = readFileSync(CONFIG, 'utf8').split('\n');
  const line = lines.findIndex((text) => text.includes('throw new Error')) + 1;
  const col = (lines[line - 1] ?? '').indexOf('new Error') + 1;
  const project = await createTestProject({
    cwd: DIR,
    config: CONFIG,
    manifests: `metadata: { type: ${App.type}, id: db }\nspec: { image: quay.io/x/pg }\n`,
  });
  try {
    const report = await project.converge();
    expect(report.converged).toBe(false);
    const failed = report.controllers.find((c) => c.name === 'place.RegistryController');
    expect(failed?.lastError?.message).toContain('quay.io is not allowed');
    expect(failed?.lastError?.location).toEqual({ file: 'cosi.config.ts', line, col });
  } finally {
    await project.close();
  }
});

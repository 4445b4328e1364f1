import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { COSI_ENTRY_POINTS, missingModuleProblem } from '../../src/loaders/cosi-import-hints.js';

const REPO = path.resolve(import.meta.dirname, '../..');

it("names the modules cosi's package.json exports", () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  const exported = Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? 'cosi' : `cosi/${key.slice(2)}`));
  expect(COSI_ENTRY_POINTS).toEqual(exported);
});

it('leaves a module that is neither cosi nor near its name to Node', () => {
  expect(missingModuleProblem('zod')).toBeUndefined();
  expect(missingModuleProblem('./types')).toBeUndefined();
  expect(missingModuleProblem('cosi/testing/matcher')).toContain(
    "(did you mean 'cosi/testing/matchers'?)",
  );
});

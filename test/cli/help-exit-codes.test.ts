import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/program.js';
import { cli } from './run-cli.js';

describe("each command's --help", { timeout: 60_000 }, () => {
  it.each([...COMMAND_NAMES.filter((name) => !name.startsWith('__')), 'completion'])(
    'cosi %s --help ends with its exit codes',
    async (name) => {
      const r = await cli([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\nExit codes[^\n]*: 0 /);
    },
  );
});

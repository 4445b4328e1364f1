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

describe('cosi help TOPIC', () => {
  it('prints the help of a command, and says an unknown one as cosi nope does (review cli3 L5)', async () => {
    const get = await cli(['help', 'get']);
    expect(get.code).toBe(0);
    expect(get.stdout).toContain('Usage: cosi get');
    expect((await cli(['help', 'help'])).stderr).not.toContain('unknown command');
    expect(await cli(['help', 'aply'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "cosi: help: unknown command 'aply'\n(Did you mean apply?)\n",
    });
    expect(await cli(['help', 'nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "cosi: help: unknown command 'nope'\n",
    });
  });
});

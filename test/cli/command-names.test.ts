import { describe, expect, it } from 'vitest';
import { COMMAND_WORDS, mainCacheName } from '../../src/cli/command-names.js';
import { createCli, COMMAND_NAMES } from '../../src/cli/program.js';

describe('the words a command line starts with, known before the CLI loads', () => {
  it("are the program's commands, its help and completion, and the help flags", () => {
    const io = {
      stdout: { write: () => true },
      stderr: { write: () => true },
      cwd: process.cwd(),
      env: {},
      isTTY: false,
    };
    const commands = createCli(io).program.commands.map((command) => command.name());
    expect([...COMMAND_WORDS].sort()).toEqual(
      [...new Set([...COMMAND_NAMES, ...commands, 'help', '--help', '-h'])].sort(),
    );
  });

  it("name the main thread's code cache; any other first word shares one", () => {
    expect(mainCacheName(['check', '-f', 'x'])).toBe('main-check');
    expect(mainCacheName(['--help'])).toBe('main---help');
    expect(mainCacheName(['chekc'])).toBe('main');
    expect(mainCacheName(['-v', 'get'])).toBe('main');
    expect(mainCacheName([])).toBe('main');
  });
});

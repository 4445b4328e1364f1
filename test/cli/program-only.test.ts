import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, createCli, runCli } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';

/** An io that keeps what is written. */
function bufferIo(): CliIo & { out: () => string } {
  let text = '';
  return {
    stdout: { write: (chunk: string) => (text += chunk) },
    stderr: { write: (chunk: string) => (text += chunk) },
    cwd: process.cwd(),
    env: {},
    isTTY: false,
    out: () => text,
  };
}

describe('a program with one command defined (a worker runs the command it was started for)', () => {
  it('defines each command under the name its definition gives it', () => {
    for (const name of [...COMMAND_NAMES, 'completion']) {
      const names = createCli(bufferIo(), { only: name }).program.commands.map((c) => c.name());
      expect(names).toEqual([name]);
    }
    expect(createCli(bufferIo()).program.commands.map((c) => c.name())).toEqual([
      ...COMMAND_NAMES,
      'completion',
    ]);
  });

  it("prints the command's help and usage errors as the whole program does", async () => {
    for (const argv of [
      ['check', '--help'],
      ['get', '--no-such-flag'],
      ['graph', '-o'],
    ]) {
      const whole = bufferIo();
      const one = bufferIo();
      const wholeCode = await runCli(argv, whole);
      const oneCode = await runCli(argv, one, { only: argv[0] });
      expect(one.out()).toBe(whole.out());
      expect(oneCode).toBe(wholeCode);
      expect(one.out()).not.toBe('');
    }
  });
});

import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  acceptShortOptionEquals,
  splitShortOptionValues,
} from '../../src/cli/short-option-equals.js';

const VALUE_FLAGS = new Set(['-o', '--output', '-n', '-l', '--selector']);

describe("a short flag's value after =", () => {
  it('is split from the flag, as kubectl reads -o=yaml', () => {
    expect(splitShortOptionValues(['vm', '-o=yaml', '-n=default'], VALUE_FLAGS)).toEqual([
      'vm',
      '-o',
      'yaml',
      '-n',
      'default',
    ]);
    // Only the first = splits: the rest is the value's.
    expect(splitShortOptionValues(['-o=jsonpath={.a}', '-l=tier=web'], VALUE_FLAGS)).toEqual([
      '-o',
      'jsonpath={.a}',
      '-l',
      'tier=web',
    ]);
    expect(splitShortOptionValues(['-o='], VALUE_FLAGS)).toEqual(['-o', '']);
  });

  it("leaves a flag's value, a flag that takes none, long flags and what follows -- as they are", () => {
    const kept = ['-l', '-o=x', '--selector', '-n=y', '-q=1', '--output=json', '--', '-o=z'];
    expect(splitShortOptionValues(kept, VALUE_FLAGS)).toEqual(kept);
  });

  it("is read by a command's own parse as the flag's value", () => {
    const command = acceptShortOptionEquals(
      new Command('get')
        .argument('<type>')
        .option('-o, --output <format>', 'format', 'table')
        .option('-n, --namespace <namespace>', 'namespace')
        .option('-q, --quiet', 'quiet')
        .exitOverride()
        .action(() => undefined),
    );
    command.parse(['vm', '-o=yaml', '-n=default', '-q'], { from: 'user' });
    expect(command.opts()).toEqual({ output: 'yaml', namespace: 'default', quiet: true });
    expect(command.args).toEqual(['vm']);
  });
});

import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

/**
 * `cosi diff` says an unknown option before the missing `--state`, as every other command says
 * an unknown option first: fixing `--state` first would only lead to the next error.
 */
describe('cosi diff usage errors', () => {
  it('an unknown option is said first, without --state too', async () => {
    const r = await cli(['diff', '-Q', '-f', 'fixtures/vm-network']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("cosi: unknown option '-Q'\n(cosi diff --help lists its flags)\n");
    const long = await cli(['diff', '--bogus']);
    expect(long.stderr).toContain("cosi: unknown option '--bogus'");
    expect(long.stderr).not.toContain('--state');
  });

  it('a missing --state is still a usage error of its own', async () => {
    const r = await cli(['diff', '-f', 'fixtures/vm-network']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("cosi: required option '--state <url>' not specified\n");
    expect(r.stdout).toBe('');
  });
});

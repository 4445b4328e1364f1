import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/loaders/config-error.js';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { exitCodeOfError } from '../../src/cli/exit-code-of-error.js';

/** The exit code of `thrown`, and what was said. */
function said(thrown: unknown): { code: number; stderr: string } {
  let stderr = '';
  const code = exitCodeOfError(thrown, { stderr: { write: (text: string) => (stderr += text) } });
  return { code, stderr };
}

describe('exitCodeOfError', () => {
  it('is 2 for what the user can fix: a usage error, a config that does not load', () => {
    expect(said(new CliError('--output: nope')).code).toBe(EXIT.usage);
    expect(said(new ConfigError('cosi.config.ts', 'cannot load the config: x')).code).toBe(2);
  });

  it('is 70 for a bug of cosi, said with its stack', () => {
    const { code, stderr } = said(
      new TypeError("Cannot read properties of undefined (reading 'x')"),
    );
    expect(code).toBe(70);
    expect(stderr).toMatch(/^cosi: internal error: TypeError: Cannot read properties/);
    expect(stderr).toMatch(/^\s+at /m);
  });
});

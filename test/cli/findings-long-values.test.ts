import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const FORMATS = ['text', 'json', 'junit', 'tap', 'github'] as const;

/** Each of the two controllers' names (151 characters) as a message quotes it. */
const NAME = `RolloutController${'X'.repeat(43)}... (151 characters)`;

/** The not-converged message of `fixtures/cli/long-names`: whole, but for the names. */
const MESSAGE =
  'the controllers did not converge (max-writes): kept changing, over the last 4096 writes: ' +
  `Echoes.test.cosi.dev(default/ping) (2048 writes by ${NAME}, last changing /spec/value); ` +
  `Echoes.test.cosi.dev(default/pong) (2048 writes by ${NAME}, last changing /spec/value)`;

describe('findings cut the long values they quote, never their message', () => {
  it.each(FORMATS)('in %s', async (format) => {
    const r = await cli(['check', '-f', 'fixtures/cli/long-names', '-o', format]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(MESSAGE);
    expect(r.stdout).not.toContain('characters cut]');
  });

  it('in every format, for a long value a manifest quotes', async () => {
    const long = 'k'.repeat(5000);
    const stdin = `metadata:\n  type: Boxes.example.org\n  id: box\nspec:\n  ? ${long}\n  : 1\n`;
    const definitions = `metadata:\n  type: rd\n  id: boxes.example.org\nspec:\n  type: Boxes.example.org\n  schema:\n    type: object\n    additionalProperties: false\n    properties:\n      size: { type: integer }\n`;
    for (const format of FORMATS) {
      const r = await cli(['check', '-f', '-', '-o', format], {
        stdin: `${definitions}---\n${stdin}`,
      });
      expect(r.code, format).toBe(1);
      expect(r.stdout, format).toContain(
        `unknown field ${format === 'json' || format === 'tap' ? '\\"' : format === 'junit' ? '&quot;' : '"'}${'k'.repeat(60)}... (5000 characters)`,
      );
      expect(r.stdout, format).not.toContain('k'.repeat(61));
    }
  });
});

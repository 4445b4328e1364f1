/**
 * docs/cli.md is generated from the commands' own definitions (scripts/cli-reference.ts): the
 * committed page must be what the definitions give today, and it must list every command with
 * every flag, so a flag added, renamed or given another default without `npm run docs:cli`
 * fails here.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLI_REFERENCE_FILE, cliReference } from '../../scripts/cli-reference.js';
import { createCli } from '../../src/cli/program.js';

const ignore = { write: () => undefined };
const program = createCli({
  stdout: ignore,
  stderr: ignore,
  cwd: '/',
  env: {},
  isTTY: false,
}).program;

describe('docs/cli.md', () => {
  it('is what npm run docs:cli generates from the command definitions today', async () => {
    const committed = await readFile(CLI_REFERENCE_FILE, 'utf8');
    expect(committed, 'docs/cli.md is out of date: run npm run docs:cli').toBe(cliReference());
  });

  it('has a section for every visible command, with its usage', () => {
    const page = cliReference();
    const visible = program.commands.filter((c) => !c.name().startsWith('__'));
    expect(visible.length).toBeGreaterThan(10);
    for (const command of visible) {
      expect(page).toContain(`\n## cosi ${command.name()}\n`);
      expect(page).toContain(`\n${command.createHelp().commandUsage(command)}\n`);
    }
    expect(page).not.toContain('__complete');
  });

  it('names every flag of every command, and the defaults help shows', () => {
    const page = cliReference();
    for (const command of program.commands.filter((c) => !c.name().startsWith('__'))) {
      for (const option of command.options) {
        expect(page, `cosi ${command.name()} ${option.flags}`).toContain(`| \`${option.flags}\` |`);
      }
    }
    expect(page).toMatch(/\| `--timeout <duration>` \| [^\n]* \| `"1h"` \|/);
    expect(page).toMatch(
      /\| `-o, --output <format>` \| output format: table, wide, yaml[^\n]* \| `"table"` \|/,
    );
  });

  it("is linked from README's table of commands, which names every command", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.split('\n## Commands\n')[1]?.split('\n## ')[0] ?? '';
    for (const command of program.commands.filter((c) => !c.name().startsWith('__'))) {
      expect(table, `cosi ${command.name()}`).toMatch(
        new RegExp(`^\\| \`cosi ${command.name()}\\b`, 'm'),
      );
    }
    expect(readme).toContain('](docs/cli.md)');
  });

  it("carries each command's examples from its help", () => {
    const section = cliReference().split('\n## cosi get\n')[1]?.split('\n## ')[0] ?? '';
    expect(section).toContain('cosi get vm/web-1 -f manifests/');
  });
});

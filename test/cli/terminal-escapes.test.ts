import { copyFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFinding } from '../../src/loaders/finding.js';
import { createColors, renderFindings } from '../../src/cli/render/report.js';
import { escapeControl, escapeControlLines } from '../../src/cli/render/escape-control.js';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { cli, REPO } from './run-cli.js';

const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);

describe('control characters in human-readable output', () => {
  it('are escaped, line feeds too unless the text is several lines', () => {
    expect(escapeControl(`a${ESC}[2Jb${BEL}\n\t\u202e`)).toBe('a\\x1b[2Jb\\x07\\n\\t\\u202e');
    expect(escapeControlLines(`a${ESC}\nb\r\n`)).toBe('a\\x1b\nb\\r\n');
    expect(escapeControl('plain ascii, é, 😀')).toBe('plain ascii, é, 😀');
  });

  it('never reach the terminal from a table or a finding', async () => {
    const dir = await temporaryDirectory('cosi-escapes-');
    await copyFile(
      path.join(REPO, 'fixtures/minimal/definitions.yaml'),
      path.join(dir, 'definitions.yaml'),
    );
    // Escaped in double quotes, these are valid YAML data: a title change and a screen clear.
    await writeFile(
      path.join(dir, 'vms.yaml'),
      'metadata: {type: vm, id: a}\nspec: {cpus: 1, image: "\\e]0;pwned\\a\\e[2J"}\n',
    );
    const table = await cli(['get', 'vm', '-f', dir], { cwd: dir });
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain(ESC);
    expect(table.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[2J');
    const finding = createFinding({
      code: 'yaml-syntax',
      message: `bad ${ESC}[2J`,
      file: 'a.yaml',
      line: 1,
      col: 1,
      pointer: '',
    });
    expect(renderFindings([finding], createColors(false))).toContain('bad \\x1b[2J');
  });
});

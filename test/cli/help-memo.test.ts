import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHelpRequest, openHelpMemo, type HelpOutput } from '../../src/cli/help-memo.js';
import { COMMAND_NAMES } from '../../src/cli/program.js';
import { runCosi } from '../support/cosi-process.js';
import { screenWaiter, tmuxServer } from '../support/tmux-watch.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-help-memo-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PIPE: HelpOutput = { isTTY: false, columns: undefined, hasColors: false, env: {} };

describe('isHelpRequest', () => {
  it('is a line that asks for help and nothing else', () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['help', 'get'], ['check', '--help']]) {
      expect(isHelpRequest(argv), argv.join(' ')).toBe(true);
    }
    expect(isHelpRequest(['graph', '-h'])).toBe(true);
    for (const argv of [
      [],
      ['check'],
      ['check', '--help', '--strict'],
      ['nope', '--help'],
      ['help', 'nope'],
      ['help', 'help'],
      ['--help', 'check'],
      ['help', '--help'],
    ]) {
      expect(isHelpRequest(argv), argv.join(' ')).toBe(false);
    }
  });
});

describe('openHelpMemo', () => {
  it('keeps a text per line and per terminal (width, colors, color variables)', () => {
    const file = path.join(dir, 'help.json');
    const outputs: HelpOutput[] = [
      PIPE,
      { isTTY: true, columns: 60, hasColors: false, env: {} },
      { isTTY: true, columns: 100, hasColors: false, env: {} },
      { isTTY: true, columns: 100, hasColors: true, env: {} },
      { ...PIPE, env: { NO_COLOR: '1' } },
      { ...PIPE, env: { FORCE_COLOR: '1' } },
      { ...PIPE, env: { CLICOLOR_FORCE: '1' } },
    ];
    outputs.forEach((output, i) => {
      const memo = openHelpMemo(['--help'], output, file);
      expect(memo?.text).toBeUndefined();
      memo?.save(`text ${String(i)}`);
    });
    openHelpMemo(['help', 'get'], PIPE, file)?.save('get');
    outputs.forEach((output, i) => {
      expect(openHelpMemo(['--help'], output, file)?.text).toBe(`text ${String(i)}`);
    });
    expect(openHelpMemo(['help', 'get'], PIPE, file)?.text).toBe('get');
    // Not a help request, or nowhere to keep it: no memo.
    expect(openHelpMemo(['check'], PIPE, file)).toBeUndefined();
    expect(openHelpMemo(['--help'], PIPE, undefined)).toBeUndefined();
  });

  it('keeps the 64 newest texts, and takes a file it did not write as none', async () => {
    const file = path.join(dir, 'help.json');
    for (let width = 1; width <= 70; width++) {
      openHelpMemo(['--help'], { ...PIPE, isTTY: true, columns: width }, file)?.save(String(width));
    }
    const text = (width: number): string | undefined =>
      openHelpMemo(['--help'], { ...PIPE, isTTY: true, columns: width }, file)?.text;
    expect(text(6)).toBeUndefined();
    expect(text(7)).toBe('7');
    expect(text(70)).toBe('70');
    expect(JSON.parse(await readFile(file, 'utf8'))).toHaveLength(64);
    for (const junk of ['not json', '{"a": 1}', '[[1, 2], ["k"]]', '[["__proto__", 5]]']) {
      await writeFile(file, junk);
      expect(openHelpMemo(['--help'], PIPE, file)?.text, junk).toBeUndefined();
    }
  });
});

describe('a help request of the built CLI', { timeout: 120_000 }, () => {
  /** `cosi args`, its temporary directory (where the memo is kept) `dir`. */
  const cosi = (args: string[]) => runCosi(args, dir, 60_000, { TMPDIR: dir });

  it('prints the same text from the memo as the run that made it, for every command', async () => {
    for (const args of [['--help'], ...COMMAND_NAMES.map((name) => [name, '--help'])]) {
      const made = await cosi(args);
      expect(made.code, args.join(' ')).toBe(0);
      expect(made.stdout).toContain('Usage: cosi');
      const memo = await cosi(args);
      expect(memo, args.join(' ')).toEqual(made);
    }
    // What printed it the second time is the memo: a doctored one is what is printed.
    const [memoFile] = (await readdir(path.join(dir, `cosi-code-cache-${uid()}`))).filter((f) =>
      f.endsWith('-help.json'),
    );
    const file = path.join(dir, `cosi-code-cache-${uid()}`, memoFile ?? '');
    const texts = JSON.parse(await readFile(file, 'utf8')) as [string, string][];
    await writeFile(
      file,
      JSON.stringify(
        texts.map(([key]) => [key, `doctored: ${(JSON.parse(key) as string[][])[0]?.join(' ')}\n`]),
      ),
    );
    expect((await cosi(['--help'])).stdout).toBe('doctored: --help\n');
    expect((await cosi(['check', '--help'])).stdout).toBe('doctored: check --help\n');
  });

  it('keeps no text of a line that fails', async () => {
    const failed = await cosi(['help', 'nope']);
    expect(failed.code).not.toBe(0);
    expect(await cosi(['help', 'nope'])).toEqual(failed);
    const files = await readdir(path.join(dir, `cosi-code-cache-${uid()}`));
    expect(files.filter((f) => f.endsWith('-help.json'))).toEqual([]);
  });

  it('prints, in a real terminal, the text of its width: a memo of another width is not taken', async () => {
    const tmux = tmuxServer(`cosi-help-memo-${String(process.pid)}`);
    const bin = path.join(path.resolve(import.meta.dirname, '../..'), 'bin/cosi.js');
    const fresh = await mkdtemp(path.join(tmpdir(), 'cosi-help-memo-fresh-'));
    /** `cosi check --help` in a terminal `width` wide, with its memo in `temporary`. */
    const screen = async (width: number, temporary: string): Promise<string> => {
      const session = `w${String(width)}-${path.basename(temporary)}`;
      await tmux(
        '-f',
        '/dev/null',
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        String(width),
        '-y',
        '150',
        `env TMPDIR=${JSON.stringify(temporary)} NO_COLOR=1 node ${JSON.stringify(bin)} check --help; echo END-OF-HELP; exec sleep 3600`,
      );
      const text = await screenWaiter(
        tmux,
        session,
        30_000,
      )((t) => t.includes('END-OF-HELP'), 'the help');
      await tmux('kill-session', '-t', session);
      return text.slice(0, text.indexOf('END-OF-HELP'));
    };
    try {
      const narrow = await screen(60, dir);
      expect(await screen(60, dir)).toBe(narrow);
      // The memo holds the 60-column text now; at 100 columns cosi prints what a first run does.
      const wide = await screen(100, fresh);
      expect(wide).not.toBe(narrow);
      expect(await screen(100, dir)).toBe(wide);
      expect(await screen(100, dir)).toBe(wide);
    } finally {
      await tmux('kill-server').catch(() => undefined);
      await rm(fresh, { recursive: true, force: true });
    }
  });
});

function uid(): string {
  return String(process.getuid?.() ?? 'user');
}

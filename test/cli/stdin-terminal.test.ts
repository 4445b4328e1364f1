/**
 * `-f -` from a terminal says that cosi waits on the standard input, in a real terminal (tmux);
 * from a pipe it says nothing (the data is coming).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screenWaiter, tmuxServer } from '../support/tmux-watch.js';

const BIN = path.join(path.resolve(import.meta.dirname, '../..'), 'bin/cosi.js');
const DOCUMENT = 'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: a }';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-stdin-terminal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cosi check -f -', () => {
  it('from a terminal says it reads the standard input, and reads it to Ctrl-D', async () => {
    const tmux = tmuxServer(`cosi-stdin-${String(process.pid)}`);
    const session = 'stdin';
    await tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '120',
      '-y',
      '20',
      '-c',
      dir,
      `env NO_COLOR=1 node ${JSON.stringify(BIN)} check -f -; echo EXIT=$?; exec sleep 3600`,
    );
    const waitForScreen = screenWaiter(tmux, session, 30_000);
    try {
      await waitForScreen(
        (text) => text.includes('cosi: reading manifests from the standard input (Ctrl-D ends it)'),
        'the note',
      );
      await tmux('send-keys', '-t', session, DOCUMENT, 'Enter', 'C-d');
      const screen = await waitForScreen((text) => /EXIT=\d/.test(text), 'the end');
      expect(screen).toMatch(/^<stdin>:1:1: error\[schema-violation\]/m);
      expect(screen).toContain('EXIT=1');
    } finally {
      await tmux('kill-server').catch(() => undefined);
    }
  }, 60_000);

  it('from a pipe says nothing of it', async () => {
    const child = spawn(process.execPath, [BIN, 'check', '-f', '-'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdout.resume();
    child.stdin.end(`${DOCUMENT}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).not.toContain('reading manifests from the standard input');
  }, 60_000);
});

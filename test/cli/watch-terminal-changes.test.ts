/**
 * `cosi watch` in a real terminal (tmux), on more resources than the screen holds: a round's
 * change far down the list is found with `n`, as `kubectl get -w` prints the changed line.
 * Needs `dist/` (npm ci builds it) and tmux (.ci/run installs it).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';
import { saveFile } from '../support/save-file.js';
import { screenWaiter, startWatchInTmux, tmuxServer } from '../support/tmux-watch.js';

const SOCKET = `cosi-watch-changes-${process.pid}`;
const SESSION = 'watch';
const COUNT = 400;

let dir: string;
const tmux = tmuxServer(SOCKET);
const waitForScreen = screenWaiter(tmux, SESSION, 30_000);

/** COUNT ConfigMaps, `cm-000` to `cm-399`; `edited`'s data reads `changed`. */
const configMaps = (edited?: number): string =>
  Array.from(
    { length: COUNT },
    (_, i) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${String(i).padStart(3, '0')}\n` +
      `  namespace: default\ndata:\n  k: ${i === edited ? 'changed' : `v${i}`}\n`,
  ).join('---\n');

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-changes-'));
  await writeFile(path.join(dir, 'cms.yaml'), configMaps());
});

afterEach(async () => {
  await tmux('kill-server').catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('cosi watch in a terminal, past a screen of rows', () => {
  it('goes to the row a round changed with n, and lists n in the footer and the help', async () => {
    expect(existsSync(path.join(REPO, 'dist/cli/main.js')), 'run npm run build first').toBe(true);
    await startWatchInTmux(tmux, SESSION, REPO, dir, ['--stable']);
    const first = await waitForScreen((s) => s.includes('round 1'), 'the first round');
    expect(first).toMatch(/^q quit .* n changed /m);

    const file = path.join(dir, 'cms.yaml');
    let saves = 0;
    const second = await waitForScreen((s) => s.includes('round 2'), 'the round of the edit', {
      // The watcher may still be scanning when the first save lands: save again, within the bound.
      meanwhile: async () => {
        if (saves++ % 20 === 0) await saveFile(file, `${configMaps(350)}${'\n'.repeat(saves)}`);
      },
    });
    expect(second).toContain('0 created, 1 updated, 0 destroyed');
    expect(second).not.toContain('cm-350');

    await tmux('send-keys', '-t', SESSION, 'n');
    await waitForScreen((s) => /^~ default +cm-350 +2 /m.test(s), 'the changed row on screen');
    await tmux('send-keys', '-t', SESSION, 'Enter');
    await waitForScreen(
      (s) => s.includes('ConfigMap default/cm-350  (updated this round)'),
      'the changed resource opened',
    );

    await tmux('send-keys', '-t', SESSION, 'Escape', '?');
    const help = await waitForScreen((s) => /^keys$/m.test(s), 'the help');
    expect(help).toMatch(/^ {2}n N {6}changed rows: next \/ previous \(\+ ~ -\)$/m);
  }, 120_000);
});

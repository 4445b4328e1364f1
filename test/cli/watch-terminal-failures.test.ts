/**
 * `cosi watch` in a real terminal with a controller that keeps failing on one resource: tmux runs
 * the built CLI on a copy of fixtures/vm-network whose placement throws for the VM `boom`; the
 * test reads the screen with `tmux capture-pane` (bounded waits). Needs `dist/` and tmux.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';
import { saveFile } from '../support/save-file.js';
import { screenWaiter, startWatchInTmux, tmuxServer } from '../support/tmux-watch.js';

const SOCKET = `cosi-watch-failures-${process.pid}`;
const SESSION = 'watch';
const tmux = tmuxServer(SOCKET);
const waitForScreen = screenWaiter(tmux, SESSION, 30_000);

const BOOM =
  '---\nmetadata:\n  type: vm\n  id: boom\nspec:\n  cpus: 1\n  image: debian\n  host: node-a\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-failures-'));
  await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
  const placement = path.join(dir, 'placement.ts');
  await writeFile(
    placement,
    (await readFile(placement, 'utf8')).replace(
      "const hostId = vm.spec.host ?? '';",
      "const hostId = vm.spec.host ?? '';\n        if (vm.metadata.id === 'boom') throw new Error('kaboom\\nthe second line of it');",
    ),
  );
});
afterEach(async () => {
  await tmux('kill-server').catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('cosi watch with a controller that keeps failing', () => {
  it('shows its finding at the manifest, names the item, and opens its whole error with Enter', async () => {
    await startWatchInTmux(tmux, SESSION, REPO, dir, ['--stable']);
    await waitForScreen((s) => s.includes('round 1'), 'the first round');
    const vms = path.join(dir, 'vms.yaml');
    const text = `${await readFile(vms, 'utf8')}${BOOM}`;
    const line = text.split('\n').indexOf('  id: boom') - 1;
    let polls = 0;
    const failing = await waitForScreen((s) => s.includes('round 2'), 'the round of boom', {
      // The watcher may still be scanning when the first edit lands: write again, within the bound.
      meanwhile: async () => {
        if (polls++ % 10 === 0) await saveFile(vms, polls === 1 ? text : `${text}\n`);
      },
    });
    expect(failing.split('\n')[0]).toBe(
      'cosi watch  round 2  vms.yaml changed  failing (controllers kept failing)',
    );
    expect(failing).toMatch(
      new RegExp(
        `^vms\\.yaml:${line}:1: error\\[reconcile-failed\\]: PlacementController could not reconcile VMs\\.example\\.org\\(default/boom\\) after 10`,
        'm',
      ),
    );
    expect(failing).toMatch(
      /^PlacementController +given up +1 item failing: VMs\.example\.org\(default\/boom\);/m,
    );

    await tmux('send-keys', '-t', SESSION, 'c');
    await waitForScreen((s) => s.includes('enter open  c / esc back'), 'the controllers focus');
    await tmux('send-keys', '-t', SESSION, 'Down');
    await tmux('send-keys', '-t', SESSION, 'Enter');
    const detail = await waitForScreen(
      (s) => s.includes('controller PlacementController'),
      'the controller detail',
    );
    expect(detail).toMatch(/^ {2}VMs\.example\.org\(default\/boom\): given up after 10 attempts$/m);
    expect(detail).toMatch(/^ {4}placement\.ts:\d+:\d+: kaboom$/m);
    expect(detail).toMatch(/^ {4}the second line of it$/m);
  }, 120_000);
});

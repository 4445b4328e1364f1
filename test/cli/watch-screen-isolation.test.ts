/**
 * The full-screen `cosi watch` runs its session, and the project's code, in a worker thread: a
 * controller stuck in a loop is stopped at `--timeout` and shown as the round's finding at the
 * manifest of the resource it was on; the next edit starts a new session; `q` still quits. A real
 * terminal: tmux runs the built CLI, the test reads the screen with `capture-pane` (bounded waits).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';
import { screenWaiter, startWatchInTmux, tmuxServer } from '../support/tmux-watch.js';

const SOCKET = `cosi-watch-isolation-${process.pid}`;
const SESSION = 'watch';
const tmux = tmuxServer(SOCKET);

const waitForScreen = screenWaiter(tmux, SESSION, 30_000);

/** Writes `text` to `file` now and again every second while waiting (the watcher may be scanning). */
function rewriting(file: string, text: string): () => Promise<void> {
  let polls = 0;
  return async () => {
    if (polls++ % 10 === 0) await writeFile(file, polls === 1 ? text : `${text}\n`);
  };
}

const vms = (cpus: number): string =>
  `# one VM\nmetadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: ${cpus} }\n`;

/** web-1, and a new VM `spin` with 4 CPUs, whose document starts on line 5. */
const withSpin = `${vms(2)}---\nmetadata: { type: VMs.example.org, id: spin }\nspec: { cpus: 4 }\n`;

/** A controller that loops forever once the VM has 4 CPUs, unless `fixed`. */
const config = (fixed: boolean): string => `import { defineConfig, defineResource } from 'cosi';
const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });
export default defineConfig({ definitions: [VM], controllers: [{ name: 'Spinner', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: async (rt: any, pointer: any) => { const vm = await rt.get(pointer); if (${fixed ? 'false' : 'true'} && vm.spec.cpus === 4) for (;;); } } as never] });
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-isolation-'));
  await writeFile(path.join(dir, 'vms.yaml'), vms(2));
  await writeFile(path.join(dir, 'cosi.config.ts'), config(false));
});
afterEach(async () => {
  await tmux('kill-server').catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('the watch screen with a controller stuck in a loop', () => {
  it('shows the stuck controller as a finding, starts again on the next edit, and quits with q', async () => {
    expect(existsSync(path.join(REPO, 'dist/cli/main.js')), 'run npm run build first').toBe(true);
    const statusFile = await startWatchInTmux(tmux, SESSION, REPO, dir, ['--timeout', '3s']);
    const first = await waitForScreen((s) => s.includes('round 1'), 'the first round');
    expect(first.split('\n')[0]).toBe('cosi watch  round 1  started  converged');

    // A round that never ends: the worker is stopped at the bound and the screen says why, as
    // the round of the file that changed.
    const stuck = await waitForScreen(
      (s) =>
        /^cosi watch {2}round 2 {2}vms\.yaml changed {2}error$/m.test(s) && s.includes('Spinner'),
      'the stuck round',
      { meanwhile: rewriting(path.join(dir, 'vms.yaml'), withSpin) },
    );
    expect(stuck).toMatch(/waiting for a file to change to start again/);
    // At the manifest of the resource it was stuck on, new in this round (the panel cuts the
    // line at its width).
    expect(stuck).toMatch(
      /^vms\.yaml:5:1: error\[not-converged\]: did not converge \(max-time\): Controller "Spinner" \(on VMs\.example\.org\(default\/spin\)/m,
    );
    // Nothing of round 1 is shown as this round's: no counts, no change markers.
    expect(stuck.split('\n')[1]).toMatch(/^0 created, 0 updated, 0 destroyed \| 1 resource \| /);
    expect(stuck).toMatch(/^ {2}default +web-1 /m);
    expect(stuck).not.toMatch(/^[+~-] /m);
    // The controller at fault is running, with the fault as its error; nothing of round 1 counted.
    expect(stuck).toMatch(
      /^Spinner +running +0 reconciles, 0 writes {2}Controller "Spinner" \(on /m,
    );

    // The fix, saved in the editor: a new session, in a new worker, on a fresh state, named by the
    // file that started it; the rounds go on from the one that was stopped.
    const again = await waitForScreen(
      (s) =>
        /^cosi watch {2}round 3 {2}cosi\.config\.ts changed: restarted on a fresh state {2}converged$/m.test(
          s,
        ),
      'a new session after the edit',
      { meanwhile: rewriting(path.join(dir, 'cosi.config.ts'), config(true)) },
    );
    expect(again).toMatch(/^\+ default +spin /m);

    await tmux('send-keys', '-t', SESSION, 'q');
    const deadline = Date.now() + 30_000;
    let status = '';
    while (Date.now() < deadline) {
      status = await readFile(statusFile, 'utf8').catch(() => '');
      if (status !== '') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status.trim()).toBe('0');
  }, 180_000);

  it('quits with q while the round is stuck', async () => {
    await writeFile(path.join(dir, 'vms.yaml'), vms(4));
    const statusFile = await startWatchInTmux(tmux, SESSION, REPO, dir, ['--timeout', '30s']);
    // The first round never ends: the screen waits for it.
    await waitForScreen((s) => s.includes('loading'), 'the screen');
    await tmux('send-keys', '-t', SESSION, 'q');
    const deadline = Date.now() + 30_000;
    let status = '';
    while (Date.now() < deadline) {
      status = await readFile(statusFile, 'utf8').catch(() => '');
      if (status !== '') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status.trim()).toBe('0');
  }, 120_000);
});

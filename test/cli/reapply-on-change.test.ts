import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileEvent } from '../../src/app/file-events.js';
import type { ReapplyResult } from '../../src/app/served-runtime.js';
import { reapplyOnChange, type ReapplyReport } from '../../src/cli/run/reapply-on-change.js';

/**
 * `reapplyOnChange` on the project `/p` (its config and one manifest), its file watcher stood in
 * for (`emit` is an event of it) and its runtime answering each reapply at once; `reapplies`
 * counts them.
 */
function watchProject(report: ReapplyReport) {
  let onEvent = (_: FileEvent): void => undefined;
  const counted = { reapplies: 0 };
  const served = {
    reapply: (): Promise<ReapplyResult> => {
      counted.reapplies++;
      return Promise.resolve({
        applied: { resources: 1, created: 0, updated: 1, removed: 0 },
        skipped: [],
      });
    },
  };
  const watcher = reapplyOnChange(
    '/p',
    ['/p/cosi.config.ts', '/p/vms.yaml'],
    (_paths, handler) => {
      onEvent = handler;
      return { close: () => Promise.resolve() };
    },
    served,
    report,
  );
  return {
    emit: (event: FileEvent): void => onEvent(event),
    get reapplies(): number {
      return counted.reapplies;
    },
    close: () => watcher.close(),
  };
}

/**
 * `cosi run --watch`'s watcher, its files and runtime stood in for: the timers are the test's
 * (the 100 ms that make changes one apply), the runtime answers when the test says.
 */
describe('reapplyOnChange', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a manifest saved while the config does not load is applied by the code that runs', async () => {
    const said: string[] = [];
    const report: ReapplyReport = {
      applied: (counts) => said.push(`applied ${counts.updated} updated`),
      refused: () => said.push('refused'),
      failed: (error) => said.push(`failed: ${error.message}`),
      // The config saved mid-edit: never restarted, the last good code runs on.
      restart: (cause) => {
        said.push(`not restarted: ${cause.scripts.join(', ')}`);
        return Promise.resolve(false);
      },
    };
    const project = watchProject(report);
    project.emit({ kind: 'change', path: '/p/cosi.config.ts' });
    await vi.advanceTimersByTimeAsync(100);
    // The config alone: nothing to apply.
    expect(said).toEqual(['not restarted: /p/cosi.config.ts']);
    project.emit({ kind: 'change', path: '/p/vms.yaml' });
    await vi.advanceTimersByTimeAsync(100);
    // The config is still to load (tried again), and the manifest's change is applied meanwhile.
    expect(said).toEqual([
      'not restarted: /p/cosi.config.ts',
      'not restarted: /p/cosi.config.ts',
      'applied 1 updated',
    ]);
    await project.close();
  });

  it('saves during a restart are one apply after it, however many there were', async () => {
    const applies: string[] = [];
    let restarted!: (ok: boolean) => void;
    const restarts: string[][] = [];
    const report: ReapplyReport = {
      applied: () => applies.push('applied'),
      refused: () => applies.push('refused'),
      failed: (error) => applies.push(`failed: ${error.message}`),
      restart: (cause) => {
        restarts.push([...cause.scripts]);
        return new Promise<boolean>((resolve) => (restarted = resolve));
      },
    };
    const project = watchProject(report);
    project.emit({ kind: 'change', path: '/p/cosi.config.ts' });
    await vi.advanceTimersByTimeAsync(100);
    expect(restarts).toEqual([['/p/cosi.config.ts']]);
    // Three saves while the restart runs, each past the 100 ms that would join them.
    for (let i = 0; i < 3; i++) {
      project.emit({ kind: 'change', path: '/p/vms.yaml' });
      await vi.advanceTimersByTimeAsync(150);
    }
    expect(project.reapplies).toBe(0);
    restarted(true);
    await vi.advanceTimersByTimeAsync(0);
    // The restarted runtime reads the files as they are now: once.
    expect(project.reapplies).toBe(1);
    expect(applies).toEqual(['applied']);
    // A save once that apply began is another one.
    project.emit({ kind: 'change', path: '/p/vms.yaml' });
    await vi.advanceTimersByTimeAsync(100);
    expect(project.reapplies).toBe(2);
    expect(restarts).toHaveLength(1);
    await project.close();
  });
});

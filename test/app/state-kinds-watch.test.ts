/**
 * `watchStateKinds` with discovery (`get -w --state` in every namespace): a namespace that gets
 * its first resource of a type after the watch started is watched from then on, and looking for
 * one every second leaves nothing behind on the watch's signal, however long it runs.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInMemoryState, newResource } from '../../src/index.js';
import { watchStateKinds, type WatchedChange } from '../../src/app/state-kinds-watch.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('watchStateKinds, discovering namespaces', () => {
  it('watches a namespace that appears later, and looks again every second without piling listeners on its signal', async () => {
    const state = createInMemoryState();
    await state.create(newResource({ namespace: 'a', type: 'Things.test', id: 'one' }, {}));
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    vi.useFakeTimers();
    const abort = new AbortController();
    try {
      const watch = await watchStateKinds(
        state,
        [{ namespace: 'a', type: 'Things.test' }],
        abort.signal,
        { kinds: () => state.kinds(), everyMs: 1000 },
      );
      const seen: WatchedChange[] = [];
      watch.follow((change) => seen.push(change));
      // A minute of looks: sixty timers, each cleared by the one listener when it ends.
      for (let i = 0; i < 60; i++) await vi.advanceTimersByTimeAsync(1000);
      await state.create(newResource({ namespace: 'b', type: 'Things.test', id: 'two' }, {}));
      await vi.advanceTimersByTimeAsync(1000);
      expect(seen.map((c) => c.after?.metadata.id)).toEqual(['two']);
      abort.abort();
      await vi.advanceTimersByTimeAsync(0);
      // Warnings are emitted on the next tick.
      vi.useRealTimers();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

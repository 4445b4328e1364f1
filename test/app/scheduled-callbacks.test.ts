import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  trackScheduledCallbacks,
  type ScheduledCallbacks,
} from '../../src/app/scheduled-callbacks.js';
import type { UserCodeMonitor, UserCodeSite } from '../../src/app/user-code-site.js';

/** A monitor that keeps the site written last, as the heartbeat does. */
function recordingMonitor(): UserCodeMonitor & { last(): string } {
  let last = 'cosi';
  return {
    enter: (site: UserCodeSite) => {
      last = site.kind === 'reconcile' ? `${site.controller}/${site.pointer?.id ?? ''}` : site.kind;
    },
    leave: () => {
      last = 'cosi';
    },
    reconcile: (controller, pointer) => {
      last = `${controller}/${pointer?.id ?? ''}`;
    },
    last: () => last,
  };
}

let tracking: ScheduledCallbacks | undefined;
afterEach(() => {
  tracking?.restore();
  tracking = undefined;
});

const pointer = (id: string) => ({ namespace: 'default', type: 'VMs.example.org', id });

describe('trackScheduledCallbacks', () => {
  it('runs a callback at the site that set it, not at the one entered last', async () => {
    const base = recordingMonitor();
    tracking = trackScheduledCallbacks(base);
    const { monitor } = tracking;
    const seen: string[] = [];
    monitor.reconcile('Early', pointer('a'));
    setTimeout(() => seen.push(base.last()), 5);
    setImmediate(() => seen.push(base.last()));
    monitor.reconcile('Busy', pointer('b'));
    await tracking.settled();
    expect(seen).toEqual(['Early/a', 'Early/a']);
  });

  it("leaves cosi's own timers (no site) alone, and gives the globals back", async () => {
    const before = globalThis.setTimeout;
    const base = recordingMonitor();
    tracking = trackScheduledCallbacks(base);
    expect(globalThis.setTimeout).not.toBe(before);
    const site = await new Promise<string>((resolve) => {
      setTimeout(() => {
        resolve(base.last());
      }, 0);
    });
    expect(site).toBe('cosi');
    tracking.restore();
    expect(globalThis.setTimeout).toBe(before);
  });

  it('settles once the short timers set now have run; longer ones and cleared ones are not awaited', async () => {
    tracking = trackScheduledCallbacks(recordingMonitor());
    tracking.monitor.reconcile('C', pointer('a'));
    const ran: string[] = [];
    setTimeout(() => ran.push('short'), 30);
    const cleared = setTimeout(() => ran.push('cleared'), 200);
    clearTimeout(cleared);
    const long = setTimeout(() => ran.push('long'), 60_000);
    await tracking.settled();
    expect(ran).toEqual(['short']);
    clearTimeout(long);
  });

  it("keeps Node's promise forms of setTimeout and setImmediate", async () => {
    tracking = trackScheduledCallbacks(recordingMonitor());
    tracking.monitor.reconcile('C', pointer('a'));
    await expect(promisify(setTimeout)(1, 'value')).resolves.toBe('value');
    await expect(promisify(setImmediate)('now')).resolves.toBe('now');
  });

  it('leaves the site of a callback that throws for the supervisor to read', () => {
    const real = globalThis.setImmediate;
    let wrapped: (() => void) | undefined;
    // The loop's setImmediate, replaced so the test runs the wrapped callback itself.
    globalThis.setImmediate = ((fn: () => void) => {
      wrapped = fn;
    }) as never;
    try {
      const base = recordingMonitor();
      tracking = trackScheduledCallbacks(base);
      tracking.monitor.reconcile('Thrower', pointer('x'));
      setImmediate(() => {
        throw new Error('late');
      });
      tracking.monitor.reconcile('Other', pointer('y'));
      expect(() => wrapped?.()).toThrow('late');
      expect(base.last()).toBe('Thrower/x');
    } finally {
      tracking?.restore();
      tracking = undefined;
      globalThis.setImmediate = real;
    }
  });
});

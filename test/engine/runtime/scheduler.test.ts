import { describe, expect, it } from 'vitest';
import { WakeupScheduler } from '../../../src/engine/runtime/scheduler.js';
import { waitFor } from '../../support/wait-for.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('wakeup scheduler', () => {
  it('runs wakeups one per macrotask, in the order asked for', async () => {
    const scheduler = new WakeupScheduler();
    const ran: string[] = [];
    scheduler.schedule(() => ran.push('a'), 'A');
    scheduler.schedule(() => ran.push('b'), 'B');
    expect(ran).toEqual([]);
    await turn();
    expect(ran).toEqual(['a']);
    await turn();
    expect(ran).toEqual(['a', 'b']);
  });

  it('holds a wakeup the gate makes wait, out of the pending count, until release finds it may run', async () => {
    const scheduler = new WakeupScheduler();
    let upstreamDone = false;
    scheduler.setGate((owner, waited) =>
      owner === 'Down' && !waited.has('Up') ? { on: ['Up'], until: () => upstreamDone } : undefined,
    );
    const ran: string[] = [];
    scheduler.schedule(() => ran.push('down'), 'Down');
    scheduler.schedule(() => ran.push('other'), 'Other');
    await turn();
    await turn();
    expect(ran).toEqual(['other']);
    expect(scheduler.pending).toBe(0);

    scheduler.release();
    await turn();
    expect(ran).toEqual(['other']);

    upstreamDone = true;
    scheduler.release();
    expect(scheduler.pending).toBe(1);
    await turn();
    expect(ran).toEqual(['other', 'down']);
  });

  it('holds a wakeup once per controller it waits for, told whom it waited for already', async () => {
    const scheduler = new WakeupScheduler();
    const asked: string[][] = [];
    let done = false;
    scheduler.setGate((_owner, waited) => {
      asked.push([...waited]);
      // Always something working upstream: first Up, then Up and Other; never one waited for.
      const on = ['Up', 'Other'].filter((name) => !waited.has(name)).slice(0, 1);
      return on.length === 0 ? undefined : { on, until: () => done };
    });
    const ran: string[] = [];
    scheduler.schedule(() => ran.push('down'), 'Down');
    await turn();
    done = true;
    scheduler.release();
    await turn();
    expect(ran).toEqual([]);
    scheduler.release();
    await turn();
    expect(ran).toEqual(['down']);
    expect(asked).toEqual([[], ['Up'], ['Up', 'Other']]);
  });

  it('releases a held wakeup after the hold limit even when nothing releases it', async () => {
    const scheduler = new WakeupScheduler(20);
    scheduler.setGate(() => ({ on: ['Up'], until: () => false }));
    const ran: string[] = [];
    scheduler.schedule(() => ran.push('down'), 'Down');
    await turn();
    expect(ran).toEqual([]);
    await waitFor(() => ran.length === 1, 2_000, 'the held wakeup to run');
  });

  it('drops held wakeups on clear', async () => {
    const scheduler = new WakeupScheduler(20);
    scheduler.setGate(() => ({ on: ['Up'], until: () => false }));
    const ran: string[] = [];
    scheduler.schedule(() => ran.push('dropped'), 'Down');
    await turn();
    scheduler.clear();
    // Held after the dropped one: by the time the limit lets it run, it would have let that one.
    scheduler.schedule(() => ran.push('later'), 'Down');
    await waitFor(() => ran.includes('later'), 2_000, 'the later wakeup to run');
    expect(ran).toEqual(['later']);
  });
});

import { describe, expect, it } from 'vitest';
import { KeyedSequencer } from '../../src/controllers/keyed-sequencer.js';

const turns = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('KeyedSequencer', () => {
  it('runs tasks of one key one after another, in the order asked for', async () => {
    const order = new KeyedSequencer();
    const log: string[] = [];
    const task = (name: string, ticks: number) => async (): Promise<string> => {
      log.push(`start ${name}`);
      await turns(ticks);
      log.push(`end ${name}`);
      return name;
    };
    // The first is the slowest: a plain Promise.all would finish the others first.
    const results = await Promise.all([
      order.run('k', task('one', 20)),
      order.run('k', task('two', 1)),
      order.run('k', task('three', 1)),
    ]);
    expect(results).toEqual(['one', 'two', 'three']);
    expect(log).toEqual([
      'start one',
      'end one',
      'start two',
      'end two',
      'start three',
      'end three',
    ]);
  });

  it('runs tasks of different keys at once', async () => {
    const order = new KeyedSequencer();
    const log: string[] = [];
    const task = (name: string) => async (): Promise<void> => {
      log.push(`start ${name}`);
      await turns();
      log.push(`end ${name}`);
    };
    await Promise.all([order.run('a', task('a')), order.run('b', task('b'))]);
    expect(log.slice(0, 2)).toEqual(['start a', 'start b']);
  });

  it('goes on with the next task of a key after one fails', async () => {
    const order = new KeyedSequencer();
    const failing = order.run('k', () => Promise.reject(new Error('boom')));
    const next = order.run('k', () => Promise.resolve('next'));
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});

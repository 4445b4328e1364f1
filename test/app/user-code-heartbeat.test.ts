/**
 * The heartbeat a project worker writes and its supervisor reads: the last site of the project's
 * code entered, through shared memory (here both sides in one thread, on one buffer).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHeartbeatBuffer,
  heartbeatReader,
  heartbeatWriter,
} from '../../src/app/user-code-heartbeat.js';

const writers: { stop(): void }[] = [];
afterEach(() => {
  for (const writer of writers.splice(0)) writer.stop();
});

function pair() {
  const buffer = createHeartbeatBuffer();
  const writer = heartbeatWriter(buffer);
  writers.push(writer);
  return { writer, read: heartbeatReader(buffer) };
}

describe('the heartbeat', () => {
  it('reads no site before the project code runs', () => {
    expect(pair().read().site).toBeUndefined();
  });

  it('reads the controller and the item of the last reconcile started', () => {
    const { writer, read } = pair();
    writer.reconcile('First', { namespace: 'default', type: 'VMs.example.org', id: 'web-1' });
    writer.reconcile('Second', { namespace: 'infra', type: 'Hosts.example.org', id: 'node-a' });
    expect(read().site).toEqual({
      kind: 'reconcile',
      controller: 'Second',
      pointer: { namespace: 'infra', type: 'Hosts.example.org', id: 'node-a' },
    });
  });

  it('reads a whole-world pass without an item, after one with an item', () => {
    const { writer, read } = pair();
    writer.reconcile('Queue', { namespace: 'default', type: 'VMs.example.org', id: 'web-1' });
    writer.reconcile('World', undefined);
    expect(read().site).toEqual({ kind: 'reconcile', controller: 'World' });
  });

  it('keeps names and ids that are not ASCII, and names seen before, exactly', () => {
    const { writer, read } = pair();
    writer.reconcile('Größe', { namespace: 'default', type: 'VMs.example.org', id: 'ünï-😀' });
    writer.reconcile('Other', { namespace: 'default', type: 'VMs.example.org', id: 'x' });
    writer.reconcile('Größe', { namespace: 'default', type: 'VMs.example.org', id: 'ünï-😀' });
    expect(read().site).toEqual({
      kind: 'reconcile',
      controller: 'Größe',
      pointer: { namespace: 'default', type: 'VMs.example.org', id: 'ünï-😀' },
    });
  });

  it('reads the config and setup while they run, and nothing once cosi takes over', () => {
    const { writer, read } = pair();
    writer.enter({ kind: 'config' });
    expect(read().site).toEqual({ kind: 'config' });
    writer.enter({ kind: 'setup' });
    expect(read().site).toEqual({ kind: 'setup' });
    writer.leave();
    expect(read().site).toBeUndefined();
  });

  it('moves its sequence at every entry, so a supervisor sees a new reconcile', () => {
    const { writer, read } = pair();
    writer.reconcile('A', undefined);
    const first = read().seq;
    writer.reconcile('A', undefined);
    expect(read().seq).not.toBe(first);
  });

  it('reads the last mark the worker made, kept through the sites entered after it', () => {
    const { writer, read } = pair();
    expect(read().mark).toBeUndefined();
    writer.mark(0);
    expect(read().mark).toBe(0);
    writer.mark(7);
    writer.reconcile('A', undefined);
    writer.leave();
    expect(read().mark).toBe(7);
  });
});

import { describe, expect, it } from 'vitest';
import { TransformMemory } from '../../src/controllers/transform-memory.js';
import { freezeResource, newResource, type Resource } from '../../src/engine/resource/resource.js';

const stored = (id: string): Resource =>
  freezeResource(newResource({ namespace: 'default', type: 'Things.test.cosi.dev', id }, {}));

const entry = (key: string) => ({ input: stored('in'), output: stored(key), key });

describe("a transform's memory of its inputs", () => {
  it('knows the inputs of an output key, one or several, as they come and go', () => {
    const memory = new TransformMemory();
    memory.set('a', entry('k1'));
    expect([...memory.inputsOf('k1')]).toEqual(['a']);
    expect(memory.uses('k1')).toBe(true);
    // A second input of the same output, then a third.
    memory.set('b', entry('k1'));
    memory.set('c', entry('k1'));
    expect([...memory.inputsOf('k1')]).toEqual(['a', 'b', 'c']);
    memory.delete('a');
    memory.delete('c');
    expect([...memory.inputsOf('k1')]).toEqual(['b']);
    // An input that maps to another output now.
    memory.set('b', entry('k2'));
    expect(memory.uses('k1')).toBe(false);
    expect([...memory.inputsOf('k1')]).toEqual([]);
    expect([...memory.inputsOf('k2')]).toEqual(['b']);
    memory.delete('b');
    expect(memory.uses('k2')).toBe(false);
    expect(memory.size).toBe(0);
  });

  it('forgets all but the listed inputs', () => {
    const memory = new TransformMemory();
    memory.set('a', entry('k1'));
    memory.set('b', entry('k1'));
    memory.set('c', entry('k2'));
    memory.forgetAllBut([stored('b')]);
    expect(memory.size).toBe(1);
    expect([...memory.inputsOf('k1')]).toEqual(['b']);
    expect(memory.uses('k2')).toBe(false);
  });
});

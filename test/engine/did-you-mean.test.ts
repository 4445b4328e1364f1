import { describe, expect, it } from 'vitest';
import { didYouMean } from '../../src/engine/did-you-mean.js';
import { createDefinition } from '../../src/engine/resource/definition.js';
import { didYouMeanType } from '../../src/loaders/did-you-mean.js';

describe('did you mean, of names equally near', () => {
  it('names the one that starts as the given name does for longest, in any order', () => {
    expect(didYouMean('ap', ['ac', 'app'])).toBe('app');
    expect(didYouMean('ap', ['app', 'ac'])).toBe('app');
    expect(didYouMean('AP', ['ac', 'App'])).toBe('App');
  });

  it('keeps the first of names that start alike', () => {
    expect(didYouMean('vmx', ['vms', 'vmz'])).toBe('vms');
  });

  it("suggests the type a user left unfinished, not another type's alias (app, not ac)", () => {
    // Sorted by type, AppConfigs (aliases appconfig, ac, acs) come before Apps (app).
    const definitions = [
      createDefinition({ type: 'AppConfigs.example.org' }),
      createDefinition({ type: 'Apps.example.org' }),
    ];
    expect(didYouMeanType('ap', definitions)).toBe('app');
  });
});

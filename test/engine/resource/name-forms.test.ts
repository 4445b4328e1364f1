import pluralize from 'pluralize';
import { afterEach, describe, expect, it } from 'vitest';
import { createDefinition } from '../../../src/engine/resource/definition.js';
import {
  BUILT_IN_NAME_FORMS,
  keepNameFormsIn,
  nameForms,
  type NameForms,
} from '../../../src/engine/resource/name-forms.js';

afterEach(() => {
  keepNameFormsIn(undefined);
});

/** A store in memory that says what was asked of it. */
function memoryStore(initial: Record<string, NameForms> = {}) {
  const kept = new Map(Object.entries(initial));
  const asked: string[] = [];
  return {
    kept,
    asked,
    store: {
      get: (name: string) => {
        asked.push(name);
        return kept.get(name);
      },
      set: (name: string, forms: NameForms) => {
        kept.set(name, forms);
      },
    },
  };
}

describe('the forms of type names', () => {
  it("are pluralize's, for the built-in names too", () => {
    for (const [name, forms] of BUILT_IN_NAME_FORMS) {
      expect(forms).toEqual({
        plural: pluralize.isPlural(name),
        singular: pluralize.singular(name),
      });
    }
    expect(nameForms('Gateways')).toEqual({ plural: true, singular: 'Gateway' });
    expect(nameForms('Policy')).toEqual({ plural: false, singular: 'Policy' });
  });

  it('are read from the store given, and the new ones kept in it', () => {
    // A store's answer is taken as it is: a doctored one shows it was read.
    const { kept, asked, store } = memoryStore({
      Widgetses: { plural: true, singular: 'Widgetlet' },
    });
    keepNameFormsIn(store);
    const definition = createDefinition({ type: 'Widgetses.example.org' });
    expect(definition.displayType).toBe('Widgetlet');
    expect(definition.aliases).toContain('widgetlet');
    createDefinition({ type: 'Sprockets.example.org' });
    expect(kept.get('Sprockets')).toEqual({ plural: true, singular: 'Sprocket' });
    // Each name is asked of the store once a thread: then it is known.
    createDefinition({ type: 'Sprockets.other.org' });
    expect(asked.filter((name) => name === 'Sprockets')).toEqual(['Sprockets']);
  });

  it('still refuse a name that is not plural, saying its plural', () => {
    keepNameFormsIn(memoryStore().store);
    expect(() => createDefinition({ type: 'Gadget.example.org' })).toThrow(
      /should be plural \("Gadgets"\)/,
    );
  });
});

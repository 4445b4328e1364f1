import { describe, expect, it } from 'vitest';
import { definitionResource } from '../../src/app/definition-resource.js';
import { createDefinition } from '../../src/engine/resource/definition.js';

describe('a definition as the state stores it', () => {
  it('holds its schema frozen, the same object each time (the worlds of check --each share it)', () => {
    const definition = createDefinition({
      type: 'Widgets.example.com',
      schema: { type: 'object', properties: { size: { type: 'integer' } } },
    });
    const first = definitionResource(definition).spec as { schema: object };
    const second = definitionResource(definition).spec as { schema: object };
    expect(second.schema).toBe(first.schema);
    expect(Object.isFrozen(first.schema)).toBe(true);
    expect(first.schema).toEqual(definition.schema);
    // The definition's own schema is left as it was.
    expect(Object.isFrozen(definition.schema)).toBe(false);
  });
});

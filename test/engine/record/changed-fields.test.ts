import { describe, expect, it } from 'vitest';
import { changedFields } from '../../../src/engine/record/changed-fields.js';
import {
  freezeResource,
  newResource,
  type Resource,
} from '../../../src/engine/resource/resource.js';

function version(spec: Record<string, unknown>, labels: Record<string, string> = {}): Resource {
  const draft = newResource({ namespace: 'default', type: 'ConfigMaps.core', id: 'c' }, spec);
  draft.metadata.labels = labels;
  return freezeResource(draft);
}

describe('the fields a write changed', () => {
  it('names the leaves that differ, not an empty object written again', () => {
    // A kro child's rendered object: its empty maps are new objects on every render.
    const before = version({ metadata: { annotations: {} }, data: { port: '80' } }, { app: 'a' });
    const after = version({ metadata: { annotations: {} }, data: { port: '81' } }, { app: 'a' });
    expect(changedFields(before, after)).toEqual(['/spec/data/port']);
  });

  it('names an object that replaced a scalar, or the reverse, with no leaves of its own', () => {
    expect(changedFields(version({ a: 1 }), version({ a: {} }))).toEqual(['/spec/a']);
    expect(changedFields(version({ a: {} }), version({ a: 'x' }))).toEqual(['/spec/a']);
  });
});

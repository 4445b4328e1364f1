import { describe, expect, it } from 'vitest';
import { manifestPlaces, mergePlaces, placeOfPointer } from '../../src/app/manifest-places.js';
import { pointerKey, type Pointer } from '../../src/engine/resource/pointer.js';
import type { ManifestResource } from '../../src/loaders/manifest-resource.js';

const vm = (id: string): Pointer => ({ namespace: 'default', type: 'VMs.example.org', id });

const at = (id: string, file: string, line: number): ManifestResource =>
  ({ key: pointerKey(vm(id)), source: { file, line, col: 1, document: 0 } }) as ManifestResource;

describe('the places of a watch round that changed files', () => {
  it('replace those of the files it changed, and keep the others', () => {
    const start = manifestPlaces([
      at('a', 'vms.yaml', 1),
      at('b', 'vms.yaml', 5),
      at('h', 'hosts.yaml', 1),
    ]);
    // vms.yaml now holds b first, and a new resource spin; a is gone from it.
    const round = manifestPlaces([at('b', 'vms.yaml', 1), at('spin', 'vms.yaml', 9)]);
    const places = mergePlaces(round, start);
    expect(placeOfPointer(places, vm('spin'))).toEqual({ file: 'vms.yaml', line: 9, col: 1 });
    expect(placeOfPointer(places, vm('b'))).toEqual({ file: 'vms.yaml', line: 1, col: 1 });
    expect(placeOfPointer(places, vm('h'))).toEqual({ file: 'hosts.yaml', line: 1, col: 1 });
    expect(placeOfPointer(places, vm('a'))).toBeUndefined();
  });
});

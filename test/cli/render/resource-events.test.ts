import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createDefinition } from '../../../src/engine/resource/definition.js';
import { objectUid } from '../../../src/engine/resource/object-uid.js';
import { freezeResource, newResource } from '../../../src/engine/resource/resource.js';
import type { ResourceChange } from '../../../src/app/selection-changes.js';
import { createResourceEventWriter } from '../../../src/cli/render/resource-events.js';
import type { ResourceFormat } from '../../../src/cli/render/resources.js';

const definition = createDefinition({
  type: 'VMs.example.org',
  printColumns: [{ name: 'CPUs', jsonPath: '{.cpus}' }],
});
const vm = (id: string, cpus: number, version = 1) => {
  const draft = newResource({ namespace: 'default', type: 'VMs.example.org', id }, { cpus });
  return freezeResource({ ...draft, metadata: { ...draft.metadata, version } });
};
const group = { type: 'VMs.example.org', definition, resources: [vm('a', 1), vm('b', 2)] };
const change = (type: ResourceChange['type'], id: string, cpus: number, version: number) =>
  ({ type, resource: vm(id, cpus, version), definition }) as const;

function print(
  format: ResourceFormat,
  options: Parameters<typeof createResourceEventWriter>[2],
  changes: readonly ResourceChange[],
): string {
  let out = '';
  const writer = createResourceEventWriter(format, (text) => (out += text), {
    stable: true,
    ...options,
  });
  writer.initial([group]);
  for (const c of changes) writer.change(c);
  return out;
}

describe('get -w output', () => {
  it('a table: the header once, then rows in its columns; EVENT fits MODIFIED from the start', () => {
    const out = print('table', { events: true }, [
      change('MODIFIED', 'a', 3, 2),
      change('ADDED', 'a-much-longer-id', 1, 1),
    ]);
    expect(out).toBe(
      [
        'EVENT      NAMESPACE   TYPE   ID   VERSION   OWNER    PHASE     CPUS',
        'ADDED      default     VM     a    1         <none>   running   1',
        'ADDED      default     VM     b    1         <none>   running   2',
        'MODIFIED   default     VM     a    2         <none>   running   3',
        // A wider cell widens its column from this row on.
        'ADDED      default     VM     a-much-longer-id   1         <none>   running   1',
        '',
      ].join('\n'),
    );
  });

  it('a type first seen in a change starts its own table, its header with it', () => {
    const draft = newResource({ namespace: 'infra', type: 'Hosts.t', id: 'h' }, {});
    const host = freezeResource({ ...draft, metadata: { ...draft.metadata, version: 1 } });
    const out = print('table', { noHeaders: false }, [
      { type: 'ADDED', resource: host, definition: undefined },
    ]);
    expect(out.split('\n').slice(3)).toEqual([
      '',
      'NAMESPACE   TYPE      ID   VERSION   OWNER    PHASE',
      'infra       Hosts.t   h    1         <none>   running',
      '',
    ]);
  });

  it('a row after one of another type comes under its own header again, never under the other type\u2019s', () => {
    const hosts = createDefinition({
      type: 'Hosts.example.org',
      printColumns: [{ name: 'Zone', jsonPath: '{.zone}' }],
    });
    const host = (zone: string, version: number) => {
      const draft = newResource(
        { namespace: 'default', type: 'Hosts.example.org', id: 'h' },
        { zone },
      );
      return freezeResource({ ...draft, metadata: { ...draft.metadata, version } });
    };
    let out = '';
    const writer = createResourceEventWriter('table', (text) => (out += text), { events: true });
    writer.initial([
      group,
      { type: 'Hosts.example.org', definition: hosts, resources: [host('eu-1', 1)] },
    ]);
    writer.change(change('MODIFIED', 'a', 3, 2));
    writer.change(change('MODIFIED', 'b', 4, 2));
    writer.change({ type: 'MODIFIED', resource: host('eu-2', 2), definition: hosts });
    expect(out).toBe(
      [
        'EVENT      NAMESPACE   TYPE   ID   VERSION   OWNER    PHASE     CPUS',
        'ADDED      default     VM     a    1         <none>   running   1',
        'ADDED      default     VM     b    1         <none>   running   2',
        '',
        'EVENT      NAMESPACE   TYPE   ID   VERSION   OWNER    PHASE     ZONE',
        'ADDED      default     Host   h    1         <none>   running   eu-1',
        '',
        'EVENT      NAMESPACE   TYPE   ID   VERSION   OWNER    PHASE     CPUS',
        'MODIFIED   default     VM     a    2         <none>   running   3',
        'MODIFIED   default     VM     b    2         <none>   running   4',
        '',
        'EVENT      NAMESPACE   TYPE   ID   VERSION   OWNER    PHASE     ZONE',
        'MODIFIED   default     Host   h    2         <none>   running   eu-2',
        '',
      ].join('\n'),
    );
    // Without headers: the rows alone.
    let bare = '';
    const rows = createResourceEventWriter('table', (text) => (bare += text), { noHeaders: true });
    rows.initial([group]);
    rows.change({ type: 'MODIFIED', resource: host('eu-2', 2), definition: hosts });
    rows.change(change('MODIFIED', 'a', 3, 2));
    expect(bare).toBe(
      [
        'default   VM   a   1   <none>   running   1',
        'default   VM   b   1   <none>   running   2',
        // A type's first rows are set apart, as in the listing; a switch back is not.
        '',
        'default   Host   h   2   <none>   running   eu-2',
        'default   VM   a   2   <none>   running   3',
        '',
      ].join('\n'),
    );
  });

  it('--no-headers prints rows only', () => {
    expect(print('table', { noHeaders: true }, [])).not.toContain('NAMESPACE');
  });

  it('-o json: one document per resource and change; with events, {type, object}', () => {
    const out = print('json', { events: true }, [change('DELETED', 'b', 2, 1)]);
    const documents = out.split(/\n(?=\{)/).map((text) => JSON.parse(text) as unknown);
    expect(documents).toMatchObject([
      { type: 'ADDED', object: { metadata: { id: 'a' }, spec: { cpus: 1 } } },
      { type: 'ADDED', object: { metadata: { id: 'b' } } },
      { type: 'DELETED', object: { metadata: { id: 'b', version: 1 } } },
    ]);
  });

  it('-o yaml: a --- stream; -o name: a line each', () => {
    const yaml = print('yaml', {}, [change('MODIFIED', 'a', 5, 2)]);
    const documents = yaml
      .split(/^---\n/m)
      .filter(Boolean)
      .map((text) => parse(text) as { spec: { cpus: number } });
    expect(documents.map((d) => d.spec.cpus)).toEqual([1, 2, 5]);
    expect(print('name', { events: true }, [change('DELETED', 'b', 2, 1)])).toBe(
      'ADDED    vms.example.org/a\nADDED    vms.example.org/b\nDELETED  vms.example.org/b\n',
    );
  });

  it('custom columns print their header once; a template runs on each resource', () => {
    const columns = print({ customColumns: [{ name: 'ID', path: '{.metadata.id}' }] }, {}, [
      change('ADDED', 'c', 1, 1),
    ]);
    expect(columns).toBe('ID\na\nb\nc\n');
    expect(print({ jsonpath: '{.spec.cpus}' }, {}, [change('MODIFIED', 'a', 7, 2)])).toBe(
      '1\n2\n7\n',
    );
  });

  it('a Kubernetes object names its owner as kubectl does, listed first and in a change alike', () => {
    const kinds = {
      'ConfigMaps.core': { apiVersion: 'v1', kind: 'ConfigMap', namespaced: true },
      'Tenants.example.org': { apiVersion: 'example.org/v1', kind: 'Tenant', namespaced: false },
    } as const;
    const ownerKinds = (type: string) => kinds[type as keyof typeof kinds];
    const configMaps = createDefinition({
      type: 'ConfigMaps.core',
      kubernetes: kinds['ConfigMaps.core'],
    });
    const owned = (id: string, version: number) => {
      const draft = newResource(
        { namespace: 'team-a', type: 'ConfigMaps.core', id },
        { data: { tenant: 'acme' } },
        { ownerReferences: [{ type: 'Tenants.example.org', id: 'acme', controller: true }] },
      );
      return freezeResource({ ...draft, metadata: { ...draft.metadata, version } });
    };
    let out = '';
    const writer = createResourceEventWriter('yaml', (text) => (out += text), { stable: true });
    writer.initial([
      { type: 'ConfigMaps.core', definition: configMaps, resources: [owned('a', 1)], ownerKinds },
    ]);
    writer.change({
      type: 'MODIFIED',
      resource: owned('a', 2),
      definition: configMaps,
      ownerKinds,
    });
    const references = out
      .split('---\n')
      .filter((text) => text !== '')
      .map((text) => (parse(text) as { metadata: { ownerReferences: unknown } }).metadata);
    const reference = {
      apiVersion: 'example.org/v1',
      kind: 'Tenant',
      name: 'acme',
      uid: objectUid('Tenants.example.org', undefined, 'acme'),
      controller: true,
    };
    expect(references.map((m) => m.ownerReferences)).toEqual([[reference], [reference]]);
  });
});

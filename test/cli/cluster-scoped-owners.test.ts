/**
 * fixtures/cluster-scoped-owners: a cluster-scoped Tenant (a CRD with `scope: Cluster`) owns a
 * ConfigMap in each namespace it names, through a controller reference, and the garbage
 * collector takes them when it goes. cosi keeps the Tenant in `default`; the ConfigMaps are in
 * team-a and team-b, which Kubernetes allows for a cluster-scoped owner.
 */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cli } from './run-cli.js';

const FIXTURE = 'fixtures/cluster-scoped-owners';

describe('a cluster-scoped owner of objects in other namespaces', () => {
  it('cosi apply converges, each ConfigMap referencing its Tenant', async () => {
    const r = await cli(['apply', '-f', FIXTURE, '-o', 'yaml', '--stable']);
    expect(r.stderr).toMatch(/^converged,/);
    expect(r.code).toBe(0);
    const configMaps = parseAllDocuments(r.stdout)
      .map((d) => d.toJS() as { kind: string; metadata: Record<string, unknown> })
      .filter((d) => d.kind === 'ConfigMap')
      .map((d) => [d.metadata.namespace, d.metadata.name, d.metadata.ownerReferences]);
    const ref = (id: string): unknown => [
      { type: 'Tenants.example.org', id, controller: true, blockOwnerDeletion: true },
    ];
    expect(configMaps).toEqual([
      ['team-a', 'tenant-acme', ref('acme')],
      ['team-b', 'tenant-acme', ref('acme')],
      ['team-b', 'tenant-globex', ref('globex')],
    ]);
  });

  it('cosi check passes it', async () => {
    const r = await cli(['check', '-f', FIXTURE]);
    expect(r.stdout).toContain('controllers: 2 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('cosi test: the ConfigMaps in both namespaces go with their Tenant, the others stay', async () => {
    const r = await cli(['test', FIXTURE]);
    expect(r.stdout).toContain('scenarios: 1 passed, 0 failed (steps: 5 passed, 0 failed)');
    expect(r.code).toBe(0);
  });
});

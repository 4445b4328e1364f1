/**
 * fixtures/manifest-owners: a ConfigMap's manifest names its Deployment as owner as kubectl
 * writes it (apiVersion, kind, name, uid); the garbage collector takes it when the Deployment
 * goes, and explain shows the owner.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const FIXTURE = 'fixtures/manifest-owners';

describe('owner references written in manifests', () => {
  it('cosi apply keeps the reference', async () => {
    const r = await cli(['apply', '-f', FIXTURE, '-o', 'json', '--stable']);
    expect(r.code).toBe(0);
    const items = (JSON.parse(r.stdout) as { items: { metadata: Record<string, unknown> }[] })
      .items;
    const owned = items.filter((d) => d.metadata.ownerReferences !== undefined);
    expect(owned.map((d) => d.metadata.name)).toEqual(['web-config']);
    // As the manifest wrote it, with the uid the Deployment prints (cosi's, not the cluster's).
    const deployment = items.find((d) => d.metadata.name === 'web');
    expect(owned[0]?.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        uid: deployment?.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it('cosi test: the ConfigMap goes with its Deployment, the other stays', async () => {
    const r = await cli(['test', FIXTURE]);
    expect(r.stdout).toContain('scenarios: 1 passed, 0 failed (steps: 5 passed, 0 failed)');
    expect(r.code).toBe(0);
  });

  it('cosi explain shows the Deployment as its owner', async () => {
    const r = await cli(['explain', 'ConfigMap', 'web-config', '-f', FIXTURE]);
    expect(r.stdout).toMatch(/ownerReference: Deployments\.apps\(shop\/web\)/);
    expect(r.code).toBe(0);
  });
});

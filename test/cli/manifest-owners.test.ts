/**
 * fixtures/manifest-owners: a ConfigMap's manifest names its Deployment as owner as kubectl
 * writes it (apiVersion, kind, name, uid); the garbage collector takes it when the Deployment
 * goes, and explain shows the owner.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

const FIXTURE = 'fixtures/manifest-owners';

let scratch: string | undefined;
afterEach(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

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

  it.each(['yaml', 'json'])(
    'apply -o %s prints what reads back, through check and apply, to the same state',
    async (format) => {
      const r = await cli(['apply', '-f', FIXTURE, '-o', format, '--stable']);
      expect(r.code).toBe(0);
      // The garbage collector holds the Deployment by a finalizer of cosi's domain, which the
      // API server (and so cosi check) takes; a bare name it refuses.
      expect(r.stdout).toContain('cosi.dev/garbage-collector');
      scratch = await mkdtemp(path.join(tmpdir(), 'cosi-manifest-owners-'));
      await copyFile(
        path.join(REPO, FIXTURE, 'cosi.config.ts'),
        path.join(scratch, 'cosi.config.ts'),
      );
      // JSON is YAML: the printed List reads as the manifests.
      await writeFile(path.join(scratch, 'printed.yaml'), r.stdout);
      const check = await cli(['check', '-f', scratch]);
      expect(check.stdout).toContain('manifests: 3 resources in 1 file: 3 valid, 0 invalid');
      expect(check.code).toBe(0);
      const again = await cli(['apply', '-f', scratch, '-o', format, '--stable']);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe(r.stdout);
    },
  );
});

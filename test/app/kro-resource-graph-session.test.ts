import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/app/project-config.js';
import { ProjectSession } from '../../src/app/project-session.js';
import { readProjectManifests } from '../../src/app/read-project-manifests.js';

const SERVICES = 'Services.core';
const REPO = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const instance = (ingress: boolean): string => `apiVersion: kro.run/v1alpha1
kind: WebApp
metadata:
  name: shop
spec:
  name: shop
  ingress:
    enabled: ${ingress}
`;

async function openTree(dir: string): Promise<ProjectSession> {
  const options = { cwd: dir, files: [dir], stable: true };
  const config = await loadProjectConfig(options);
  const manifests = await readProjectManifests(options, config);
  expect(manifests.findings.filter((f) => f.severity === 'error')).toEqual([]);
  return ProjectSession.open(config, manifests, options);
}

async function reread(dir: string) {
  const options = { cwd: dir, files: [dir], stable: true };
  return readProjectManifests(options, await loadProjectConfig(options));
}

describe('the controller of a kro RGD, as the instances change', () => {
  it('removes a resource when its includeWhen turns false, and all when the instance goes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kro-session-'));
    dirs.push(dir);
    await writeFile(
      path.join(dir, 'rgd.yaml'),
      await readFile(path.join(REPO, 'fixtures/kro-webapp/rgd.yaml'), 'utf8'),
    );
    await writeFile(path.join(dir, 'shop.yaml'), instance(true));
    const session = await openTree(dir);
    const { state } = session.project;
    const ids = async (type: string) =>
      (await state.list({ namespace: 'default', type })).map((r) => r.metadata.id);
    try {
      expect((await session.converge()).converged).toBe(true);
      expect(await ids('Ingresses.networking.k8s.io')).toEqual(['shop']);
      expect(await ids('Deployments.apps')).toEqual(['shop']);
      expect(await ids(SERVICES)).toEqual(['shop-svc']);

      await writeFile(path.join(dir, 'shop.yaml'), instance(false));
      await session.applyEdit(await reread(dir));
      expect((await session.converge()).converged).toBe(true);
      expect(await ids('Ingresses.networking.k8s.io')).toEqual([]);
      expect(await ids('Deployments.apps')).toEqual(['shop']);

      await rm(path.join(dir, 'shop.yaml'));
      await session.applyEdit(await reread(dir));
      expect((await session.converge()).converged).toBe(true);
      expect(await ids('Deployments.apps')).toEqual([]);
      expect(await ids(SERVICES)).toEqual([]);
    } finally {
      await session.close();
    }
  });

  // kro's test/integration/suites/core/omit_test.go, cases 1, 1b and 1c (Apache-2.0).
  it('writes a field omit() left out once the instance asks for it, and removes it again', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kro-session-'));
    dirs.push(dir);
    await writeFile(
      path.join(dir, 'rgd.yaml'),
      `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: test-omit
spec:
  schema:
    apiVersion: v1alpha1
    kind: TestOmit
    spec:
      name: string
      optional: string | default=""
  resources:
    - id: configmap
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name}
        data:
          always: present
          optional: '\${schema.spec.optional != "" ? schema.spec.optional : omit()}'
`,
    );
    const instance = (optional: string): string =>
      `apiVersion: kro.run/v1alpha1\nkind: TestOmit\nmetadata:\n  name: one\nspec:\n  name: one\n  optional: "${optional}"\n`;
    await writeFile(path.join(dir, 'one.yaml'), instance(''));
    const session = await openTree(dir);
    const data = async () =>
      (
        await session.project.state.get({
          namespace: 'default',
          type: 'ConfigMaps.core',
          id: 'one',
        })
      ).spec as { data: Record<string, string> };
    try {
      expect((await session.converge()).converged).toBe(true);
      expect((await data()).data).toEqual({ always: 'present' });

      await writeFile(path.join(dir, 'one.yaml'), instance('now-present'));
      await session.applyEdit(await reread(dir));
      expect((await session.converge()).converged).toBe(true);
      expect((await data()).data).toEqual({ always: 'present', optional: 'now-present' });

      await writeFile(path.join(dir, 'one.yaml'), instance(''));
      await session.applyEdit(await reread(dir));
      expect((await session.converge()).converged).toBe(true);
      expect((await data()).data).toEqual({ always: 'present' });
    } finally {
      await session.close();
    }
  });
});

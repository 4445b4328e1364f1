import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnknownKindFilterError } from '../../src/loaders/kind-filter.js';
import { readManifests } from '../../src/loaders/manifest-reader.js';

const MANIFESTS = `apiVersion: v1
kind: Secret
metadata: { name: token }
stringData: { token: x }
---
apiVersion: v1
kind: Pod
metadata: { name: web }
spec: { containers: [{ name: web, image: nginx }] }
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.org }
spec:
  group: example.org
  names: { kind: Widget, plural: widgets, shortNames: [wd] }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }
---
apiVersion: example.org/v1
kind: Widget
metadata: { name: w }
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-kinds-'));
  await writeFile(path.join(dir, 'all.yaml'), MANIFESTS);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The kinds `--reject-kinds` refused, and the codes of the findings without a file. */
async function reject(...names: string[]) {
  const result = await readManifests(['.'], { cwd: dir, rejectKinds: names });
  return {
    rejected: result.findings
      .filter((f) => f.code === 'rejected-kind')
      .map((f) => f.message.split(' ')[0]),
    unknown: result.findings.filter((f) => f.code === 'unknown-kind-filter').map((f) => f.message),
  };
}

describe('--skip-kinds and --reject-kinds', () => {
  it('take a kind as kubeconform does, and a resource name as kubectl resolves it', async () => {
    for (const name of [
      'Secret',
      'v1/Secret',
      'secrets',
      'secret',
      'Secrets.core',
      'core/v1/Secret',
    ]) {
      expect(await reject(name), name).toEqual({ rejected: ['Secret'], unknown: [] });
    }
    expect(await reject('po')).toEqual({ rejected: ['Pod'], unknown: [] });
    // A CRD's plural and short name, from the same run.
    expect(await reject('widgets')).toEqual({ rejected: ['Widget'], unknown: [] });
    expect(await reject('wd')).toEqual({ rejected: ['Widget'], unknown: [] });
  });

  it('refuse a --reject-kinds name that stands for no kind and matches no document, saying which it meant', async () => {
    await expect(reject('Secrest', 'Secret')).rejects.toThrow(UnknownKindFilterError);
    await expect(reject('Secrest', 'Secret')).rejects.toThrow(
      /^--reject-kinds Secrest \(did you mean Secret\?\): no kind that Kubernetes, a CRD or the config defines/,
    );
    // A kind no definition knows, written in the documents, is rejected as written.
    await writeFile(
      path.join(dir, 'sealed.yaml'),
      'apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata: { name: s }\n',
    );
    expect((await reject('SealedSecret')).rejected).toEqual(['SealedSecret']);
  });

  it('say a --skip-kinds name that stands for no kind and matches no document, as a warning', async () => {
    const skipped = await readManifests(['.'], { cwd: dir, skipKinds: ['Gadget'] });
    expect(skipped.findings.map((f) => [f.code, f.severity])).toEqual([
      ['unknown-kind-filter', 'warning'],
    ]);
    // A kind no definition knows, written in the documents (kubeconform users skip such kinds).
    await writeFile(
      path.join(dir, 'sealed.yaml'),
      'apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata: { name: s }\n',
    );
    const sealed = await readManifests(['.'], { cwd: dir, skipKinds: ['SealedSecret'] });
    expect(sealed.findings).toEqual([]);
  });
});

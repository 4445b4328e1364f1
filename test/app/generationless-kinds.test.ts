/**
 * A project tells its runtime the Kubernetes identity of its kinds: a builder controller's
 * predicates see no generation on a built-in kind the API server keeps none for (ConfigMap), so
 * `generationChanged` drops an edit of its data, as on a cluster; a Deployment's counts.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestProject, type TestProject } from '../../src/testing/index.js';
import {
  controllerManagedBy,
  defineResource,
  generationChanged,
  predicateFuncs,
  type Runtime,
} from '../../src/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');

const MANIFESTS = `apiVersion: v1
kind: ConfigMap
metadata: { name: web, namespace: default }
data: { level: info }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: nginx }] }
`;

type Spec = Record<string, unknown>;
const setData = (spec: Spec): void => {
  spec.data = { level: 'debug' };
};
const setReplicas = (spec: Spec): void => {
  (spec.spec as { replicas?: number }).replicas = 3;
};

const open: TestProject[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

describe('a builder controller of a project on built-in kinds', () => {
  it.each([
    ['ConfigMaps.core', 0, 0, setData],
    ['Deployments.apps', 2, 1, setReplicas],
  ] as const)(
    'for(%s) with generationChanged sees generation %i on an edit and reconciles %i time(s)',
    async (type, generation, reconciles, change) => {
      const kind = defineResource<Record<string, unknown>>({ type });
      const seen: number[] = [];
      let calls = 0;
      const setup = (runtime: Runtime) =>
        controllerManagedBy(runtime)
          .for(kind, {
            predicates: [
              predicateFuncs({
                update: (e) => {
                  seen.push(e.objectNew.metadata.generation);
                  return true;
                },
              }),
              generationChanged,
            ],
          })
          .complete(async () => {
            calls++;
          });
      const p = await createTestProject({ cwd: REPO, config: { setup }, manifests: MANIFESTS });
      open.push(p);
      await p.converge();
      calls = 0;
      await p.edit(type, 'web', (draft) => {
        change(draft.spec);
      });
      await p.converge();
      expect({ seen, calls }).toEqual({ seen: [generation], calls: reconciles });
    },
  );
});

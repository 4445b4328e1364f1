import * as path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestProject, type TestProject } from '../../src/testing/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');

let project: TestProject | undefined;
afterEach(async () => {
  await project?.close();
  project = undefined;
});

const vm = (id: string, namespace = 'default') => ({ namespace, type: 'VMs.demo.example.org', id });

describe('what apply, edit and destroy of a test project answer', () => {
  it('names each resource by its pointer, never by an internal key', async () => {
    project = await createTestProject({ cwd: REPO, manifests: 'fixtures/graph-demo' });
    expect((await project.converge()).converged).toBe(true);
    const applied = await project.apply({
      metadata: { type: 'vm', id: 'web-9' },
      spec: { image: 'debian' },
    });
    expect(applied).toEqual({
      created: [vm('web-9')],
      updated: [],
      tornDown: [],
      unchanged: [
        { namespace: 'config', type: 'Configs.demo.example.org', id: 'global' },
        vm('web-1'),
        vm('db-1'),
        vm('batch-1', 'staging'),
      ],
    });
    // What a user sees printing it holds no control character.
    expect(inspect(applied)).not.toMatch(/\\x00|\0/);
    expect(JSON.stringify(applied)).not.toContain('\\u0000');

    const edited = await project.edit<{ image: string }>('vm', 'web-9', (draft) => {
      draft.spec.image = 'alpine';
    });
    expect(edited.updated).toEqual([vm('web-9')]);
    expect(edited.created).toEqual([]);

    const destroyed = await project.destroy('vm', 'web-9');
    expect(destroyed.tornDown).toEqual([vm('web-9')]);
  });
});

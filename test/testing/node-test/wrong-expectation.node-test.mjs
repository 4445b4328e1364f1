// Fails on purpose: node:test must report cosi/testing's diff as the test's failure.
import { fileURLToPath, URL } from 'node:url';
import { test } from 'node:test';
import { createTestProject, expectResource } from 'cosi/testing';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

test('web-1 is on the alpine bridge (it is not)', async (t) => {
  const project = await createTestProject({ cwd: REPO, manifests: 'fixtures/vm-network' });
  t.after(() => project.close());
  await project.converge();
  await expectResource(project, 'NetworkConfig', 'web-1', { bridge: 'br-alpine' });
});

/* global test, expect -- jest's globals */
// A wrong expectation under jest: the matcher fails the test with the diff of the spec
// (test/testing/jest.test.ts expects this file to fail).
import 'cosi/testing/matchers';
import { fileURLToPath, URL } from 'node:url';
import { createTestProject } from 'cosi/testing';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

test('a wrong expectation fails with the diff', async () => {
  const project = await createTestProject({ cwd: REPO, manifests: 'fixtures/vm-network' });
  try {
    await project.converge();
    await expect(project).toHaveResource('NetworkConfig', 'web-1', { bridge: 'br-alpine' });
  } finally {
    await project.close();
  }
});

/* global test, expect -- jest's globals */
// The vm-network fixture tested through cosi/testing under jest, with the matchers registered
// by one import, as a user of the built package would: see test/testing/jest.test.ts.
import 'cosi/testing/matchers';
import { fileURLToPath, URL } from 'node:url';
import { createTestProject } from 'cosi/testing';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

test('every VM gets its network', async () => {
  const project = await createTestProject({ cwd: REPO, manifests: 'fixtures/vm-network' });
  try {
    expect(await project.converge()).toConverge();
    await expect(project).toHaveResource('NetworkConfig', 'web-1', { bridge: 'br-debian' });
  } finally {
    await project.close();
  }
});

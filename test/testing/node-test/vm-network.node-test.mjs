// The vm-network fixture tested through cosi/testing under node:test, as a user of the built
// package would: `node --test test/testing/node-test/vm-network.node-test.mjs` (after the build).
import assert from 'node:assert/strict';
import { fileURLToPath, URL } from 'node:url';
import { test } from 'node:test';
import {
  CosiAssertionError,
  createTestProject,
  expectConverged,
  expectResource,
  teardownAndDestroy,
} from 'cosi/testing';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

test('every VM gets its network', async (t) => {
  const project = await createTestProject({ cwd: REPO, manifests: 'fixtures/vm-network' });
  t.after(() => project.close());
  expectConverged(await project.converge());
  await expectResource(project, 'NetworkConfig', 'web-1', { bridge: 'br-debian' });
  await teardownAndDestroy(project, 'vm', 'web-2');
  assert.equal(await project.get('NetworkConfig', 'web-2'), undefined);
});

test('a wrong expectation throws an assertion error with the diff', async (t) => {
  const project = await createTestProject({ cwd: REPO, manifests: 'fixtures/vm-network' });
  t.after(() => project.close());
  await project.converge();
  await assert.rejects(
    expectResource(project, 'NetworkConfig', 'web-1', { bridge: 'br-alpine' }),
    (error) =>
      error instanceof CosiAssertionError &&
      error.message.includes('-bridge: br-alpine\n+bridge: br-debian'),
  );
});

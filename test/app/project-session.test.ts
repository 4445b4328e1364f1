import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/app/project-config.js';
import { ProjectSession } from '../../src/app/project-session.js';
import { readProjectManifests } from '../../src/app/read-project-manifests.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const options = { cwd: REPO, files: ['fixtures/vm-network'], stable: true };

async function openVmNetwork(): Promise<{
  session: ProjectSession;
  manifests: Awaited<ReturnType<typeof readProjectManifests>>;
}> {
  const config = await loadProjectConfig(options);
  const manifests = await readProjectManifests(options, config);
  expect(manifests.findings.filter((f) => f.severity === 'error')).toEqual([]);
  return { session: await ProjectSession.open(config, manifests, options), manifests };
}

describe('ProjectSession', () => {
  it('opens a project on the manifests and converges it', async () => {
    const { session, manifests } = await openVmNetwork();
    try {
      const report = await session.converge();
      expect(report.converged).toBe(true);
      expect(session.config?.file).toBe(path.join(REPO, 'fixtures/vm-network/cosi.config.ts'));
      const first = manifests.resources[0]?.resource.metadata;
      expect(first && (await session.project.state.get(first)).metadata.id).toBe(first?.id);
    } finally {
      await session.close();
    }
  });

  it('applies an edit as the difference, and converges again on it', async () => {
    const { session, manifests } = await openVmNetwork();
    try {
      await session.converge();
      const [dropped, ...kept] = manifests.resources;
      const changes = await session.applyEdit({ resources: kept, changes: undefined });
      expect(changes.tornDown).toEqual([dropped?.key]);
      expect(changes.created).toEqual([]);
      const report = await session.converge();
      expect(report.converged).toBe(true);
    } finally {
      await session.close();
    }
  });

  it('closes once, however often it is asked to', async () => {
    const { session } = await openVmNetwork();
    await Promise.all([session.close(), session.close()]);
    await session.close();
    expect(session.project.runtime.controllerNames().length).toBeGreaterThan(0);
  });
});

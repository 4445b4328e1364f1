import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProject } from '../../src/app/run-project.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const options = { cwd: REPO, files: ['fixtures/vm-network'], stable: true };

describe('a run that releases its manifests', () => {
  it('keeps none of them once the state holds them, and converges to the same state', async () => {
    const kept = await runProject(options);
    const released = await runProject({ ...options, releaseManifests: true });
    expect(kept.manifests.resources.length).toBeGreaterThan(0);
    expect(released.manifests.resources).toEqual([]);
    // The project's applier keeps none of them either, yet counts them (the write bound).
    const project = released.outcome?.project;
    const key = kept.manifests.resources[0]?.key ?? '';
    expect(project?.applier.appliedAt(key)).toBeUndefined();
    expect(project?.applier.size).toBe(kept.manifests.resources.length);
    expect(released.outcome?.snapshot.resources).toEqual(kept.outcome?.snapshot.resources);
    expect(released.manifests.findings).toEqual(kept.manifests.findings);
  });
});

import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchRound, WatchSession } from '../../src/app/watch-session.js';
import { startEditedWatch } from '../support/watch-edits.js';
import { REPO } from '../cli/run-cli.js';

let dir: string;
let session: WatchSession | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-kubernetes-'));
  const from = path.join(REPO, 'fixtures/kubernetes');
  await mkdir(path.join(dir, 'project'));
  await mkdir(path.join(dir, 'crds'));
  for (const file of ['cosi.config.ts', 'webapp-controller.ts', 'webapps.yaml']) {
    await cp(path.join(from, file), path.join(dir, 'project', file));
  }
  // The CRDs come from --definitions, outside the watched tree.
  await cp(path.join(from, 'apps-crds.yaml'), path.join(dir, 'crds', 'apps-crds.yaml'));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

async function start() {
  const {
    session: started,
    rounds,
    save,
  } = await startEditedWatch({
    files: ['project'],
    definitionPaths: ['crds'],
    cwd: dir,
    stable: true,
  });
  session = started;
  const edit = (from: string, to: string) => save(path.join('project', 'webapps.yaml'), from, to);
  return { rounds, edit };
}

const replicas = (round: WatchRound | undefined, id: string): unknown => {
  const deployment = round?.snapshot?.resources.find(
    (r) => r.metadata.type === 'Deployments.apps' && r.metadata.id === id,
  );
  return (deployment?.spec as { spec?: { replicas?: number } } | undefined)?.spec?.replicas;
};

describe('cosi watch on Kubernetes manifests, with --definitions', () => {
  it('converges a WebApp edit into its Deployment, with the CRDs of --definitions', async () => {
    const { rounds, edit } = await start();
    expect(rounds[0]?.findings).toEqual([]);
    expect(replicas(rounds[0], 'shop')).toBe(3);
    await edit('replicas: 3', 'replicas: 5');
    expect(rounds).toHaveLength(2);
    expect(replicas(rounds[1], 'shop')).toBe(5);
  });

  it('shows an edit the CRD schema refuses at its line, and keeps the last good state', async () => {
    const { rounds, edit } = await start();
    await edit('replicas: 3', 'replicas: 0');
    const last = rounds[rounds.length - 1];
    expect(last?.findings.map((f) => [f.code, f.file, f.line, f.pointer])).toEqual([
      ['schema-violation', 'project/webapps.yaml', 9, '/spec/replicas'],
    ]);
    expect(replicas(last, 'shop')).toBe(3);
  });
});

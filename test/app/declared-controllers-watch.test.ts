import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchRound } from '../../src/app/watch-session.js';
import { startEditedWatch, type EditedWatch } from '../support/watch-edits.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const watches: EditedWatch[] = [];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(watches.splice(0).map((w) => w.session.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function watchFixture(fixture: string): Promise<{ dir: string; watch: EditedWatch }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-declared-watch-'));
  dirs.push(dir);
  await cp(path.join(REPO, fixture), dir, { recursive: true });
  const watch = await startEditedWatch({ files: ['.'], cwd: dir, stable: true });
  watches.push(watch);
  return { dir, watch };
}

/** The specs of a type in the round's state, by id. */
async function specs(round: WatchRound, type: string): Promise<Record<string, unknown>> {
  const state = round.project?.state;
  if (state === undefined) throw new Error('the round has no project');
  const list = await state.list<Record<string, unknown>>({ namespace: 'default', type });
  return Object.fromEntries(list.map((r) => [r.metadata.id, r.spec]));
}

describe('watch and the controllers declared in manifests', { timeout: 30_000 }, () => {
  it('re-registers an edited RGD: its new template renders the instances', async () => {
    const { watch } = await watchFixture('fixtures/kro-webapp');
    const first = watch.rounds.at(-1) as WatchRound;
    expect(Object.keys(await specs(first, 'Services.core'))).toEqual(['blog-svc', 'shop-svc']);

    const edited = await watch.save(
      'rgd.yaml',
      '${deployment.metadata.name}-svc',
      '${deployment.metadata.name}-service',
    );
    expect(edited.applied).toBe(true);
    expect(edited.trigger).toBe('restart');
    expect(edited.report?.converged).toBe(true);
    expect(Object.keys(await specs(edited, 'Services.core'))).toEqual([
      'blog-service',
      'shop-service',
    ]);
  });

  it('renders an instance a round adds in a namespace no instance was in, and lays a status observed in a round', async () => {
    const { watch } = await watchFixture('fixtures/kro-webapp');
    const added = await watch.save(
      'instances.yaml',
      'spec:\n  name: blog\n',
      'spec:\n  name: blog\n---\napiVersion: kro.run/v1alpha1\nkind: WebApp\nmetadata:\n  name: news\n  namespace: team-d\nspec:\n  name: news\n',
    );
    expect(added.trigger).toBe('manifests');
    const state = added.project?.state;
    if (state === undefined) throw new Error('the round has no project');
    const inTeam = async (type: string) =>
      (await state.list<Record<string, unknown>>({ namespace: 'team-d', type })).map((r) => ({
        id: r.metadata.id,
        status: r.spec.status,
      }));
    expect(await inTeam('Deployments.apps')).toEqual([{ id: 'news', status: undefined }]);
    expect(await inTeam('WebApps.kro.run')).toEqual([
      {
        id: 'news',
        status: expect.objectContaining({ state: 'ACTIVE', deploymentName: 'news' }) as unknown,
      },
    ]);

    const observed = await watch.save(
      'instances.yaml',
      'spec:\n  name: news\n',
      'spec:\n  name: news\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: news\n  namespace: team-d\n  annotations: { cosi.dev/observed: "true" }\nstatus: { availableReplicas: 1 }\n',
    );
    expect(observed.trigger).toBe('manifests');
    expect(await inTeam('Deployments.apps')).toEqual([
      { id: 'news', status: { availableReplicas: 1 } },
    ]);
    expect(await inTeam('WebApps.kro.run')).toEqual([
      { id: 'news', status: expect.objectContaining({ availableReplicas: 1 }) as unknown },
    ]);
  });

  it('keeps the last good RGD running when an edit breaks it, and says why', async () => {
    const { watch } = await watchFixture('fixtures/kro-webapp');
    const broken = await watch.save(
      'rgd.yaml',
      '${deployment.metadata.name}-svc',
      '${nobody.metadata.name}-svc',
    );
    expect(broken.applied).toBe(false);
    expect(broken.findings.map((f) => f.code)).toContain('rgd-unknown-ref');
    expect(Object.keys(await specs(broken, 'Services.core'))).toEqual(['blog-svc', 'shop-svc']);
  });

  it('re-registers an edited transform document', async () => {
    const { dir, watch } = await watchFixture('fixtures/yaml-transforms');
    const first = watch.rounds.at(-1) as WatchRound;
    expect((await specs(first, 'NICs.example.org'))['web-1-nic']).toMatchObject({ mtu: 1500 });

    const edited = await watch.save('transform.yaml', ': 1500}', ': 1400}');
    expect(edited.trigger).toBe('restart');
    expect((await specs(edited, 'NICs.example.org'))['web-1-nic']).toMatchObject({ mtu: 1400 });

    // An edit of an input only applies the difference: the running controller renders it.
    await writeFile(
      path.join(dir, 'vms.yaml'),
      (await readFile(path.join(dir, 'vms.yaml'), 'utf8')).replace(
        'network: false',
        'network: true',
      ),
    );
    const input = await watch.save('vms.yaml', 'mtu: 9000', 'mtu: 8000');
    expect(input.trigger).toBe('manifests');
    expect(await specs(input, 'NICs.example.org')).toMatchObject({
      'batch-1-nic': { mtu: 1400 },
      'db-1-nic': { mtu: 8000 },
    });
  });
});

import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveProject, type ServedProject } from '../../src/app/serve-project.js';
import { createInMemoryState } from '../../src/engine/state/in-memory-state.js';
import type { State } from '../../src/engine/state/state.js';

const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/kro-webapp');

/** The ids of each kind's resources in `state`, by type, skipping definitions. */
async function idsByType(state: State): Promise<Record<string, string[]>> {
  const byType: Record<string, string[]> = {};
  for (const kind of await state.kinds()) {
    const ids = (await state.list(kind)).map((r) => r.metadata.id);
    if (ids.length > 0) (byType[kind.type] ??= []).push(...ids);
  }
  return byType;
}

describe('serveProject with a kro ResourceGraphDefinition edited between two runs', () => {
  let dir: string;
  let served: ServedProject | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-serve-kro-'));
    await cp(FIXTURE, dir, { recursive: true });
  });
  afterEach(async () => {
    await served?.stop();
    served = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const serve = async (state: State): Promise<ServedProject> => {
    const result = await serveProject({ files: [dir], cwd: dir, state });
    if (!('project' in result)) throw new Error(JSON.stringify(result.findings));
    served = result;
    await result.elected;
    await result.settle();
    return result;
  };

  it('destroys the Ingresses of a graph that no longer renders one, keeping the rest', async () => {
    const state = createInMemoryState();
    const first = await serve(state);
    const before = await idsByType(state);
    const ingressType = Object.keys(before).find((t) => t.startsWith('Ingresses.'));
    expect(ingressType).toBeDefined();
    expect(before[ingressType!]).toEqual(['shop']);
    await first.stop();
    served = undefined;

    // The RGD loses its Ingress template while no run is up.
    const rgd = path.join(dir, 'rgd.yaml');
    const text = await readFile(rgd, 'utf8');
    const cut = text.indexOf('    - id: ingress');
    expect(cut).toBeGreaterThan(0);
    await writeFile(rgd, text.slice(0, cut));

    await serve(state);
    await vi.waitFor(
      async () => {
        const after = await idsByType(state);
        expect(after[ingressType!]).toBeUndefined();
      },
      { timeout: 5_000, interval: 20 },
    );
    const after = await idsByType(state);
    for (const [type, ids] of Object.entries(before)) {
      if (type !== ingressType) expect(after[type], type).toEqual(ids);
    }
  });
});

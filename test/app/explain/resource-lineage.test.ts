import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { traceLineage, type ResourceNode } from '../../../src/app/explain/resource-lineage.js';
import { ExplainIndex } from '../../../src/app/explain/explain-source.js';
import { explainSourceOf, runProject } from '../../../src/app/run-project.js';
import type { VersionRef } from '../../../src/engine/record/run-record.js';

const root = resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function sourceOf(dir: string) {
  const run = await runProject({ cwd: root, files: [dir], record: true, stable: true });
  const source = run.outcome && explainSourceOf(run.outcome, run.manifests.resources);
  if (!source) throw new Error(`${dir} did not run recorded`);
  return source;
}

/** One line per resource: who wrote it and what it came from, in order. */
function lines(nodes: readonly ResourceNode[]): string[] {
  return nodes.map(
    (n) =>
      `${n.type} ${n.namespace}/${n.id} by ${n.writer || '-'} <- ${
        n.derivedFrom.map((s) => `${s.type} ${s.namespace}/${s.id} (${s.via})`).join(', ') || '-'
      }`,
  );
}

/** A vm-network project with `vms` VMs shared by three hosts. */
async function vmNetwork(vms: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cosi-lineage-'));
  dirs.push(dir);
  await cp(join(root, 'fixtures/vm-network'), dir, { recursive: true });
  await writeFile(
    join(dir, 'hosts.yaml'),
    ['a', 'b', 'c']
      .map((h) => `metadata:\n  type: host\n  id: node-${h}\nspec:\n  cpus: 1000\n  zone: z\n`)
      .join('---\n'),
  );
  await writeFile(
    join(dir, 'vms.yaml'),
    Array.from(
      { length: vms },
      (_, i) =>
        `metadata:\n  type: vm\n  id: vm-${i}\nspec:\n  cpus: 1\n  image: debian\n  host: node-${'abc'[i % 3]}\n`,
    ).join('---\n'),
  );
  return dir;
}

describe('traceLineage', () => {
  // vm-network: a Host feeds the status of every VM on it (shared ancestors), a VM feeds its
  // NetworkConfig and its placement, which also reads the Host (diamonds).
  it('lists each resource with its writer and its sources, closest first', async () => {
    const source = await sourceOf('fixtures/vm-network');
    const nodes = traceLineage(source.resources, source.graph, source.record);
    expect(lines(nodes)).toMatchSnapshot();
  });

  it('without a record, counts only owner references', async () => {
    const source = await sourceOf('fixtures/vm-network');
    const nodes = traceLineage(source.resources, source.graph);
    expect(lines(nodes)).toMatchSnapshot();
  });

  it('finds a cluster-scoped owner of objects in other namespaces', async () => {
    const source = await sourceOf('fixtures/cluster-scoped-owners');
    const isClusterScoped = source.isClusterScoped ?? (() => false);
    const nodes = traceLineage(source.resources, source.graph, undefined, { isClusterScoped });
    expect(lines(nodes).filter((l) => l.startsWith('ConfigMaps'))).toEqual([
      'ConfigMaps.core team-a/tenant-acme by TenantConfig <- Tenants.example.org default/acme (ownerReference)',
      'ConfigMaps.core team-b/tenant-acme by TenantConfig <- Tenants.example.org default/acme (ownerReference)',
      'ConfigMaps.core team-b/tenant-globex by TenantConfig <- Tenants.example.org default/globex (ownerReference)',
      'ConfigMaps.core team-c/tenant-globex by TenantConfig <- Tenants.example.org default/globex (ownerReference)',
    ]);
    // explain's lineage looks owners up the same way.
    const index = new ExplainIndex(source);
    const ref = { type: 'Tenants.example.org', id: 'acme', controller: true };
    expect(
      index.ownerPointer(ref, { namespace: 'team-b', type: 'ConfigMaps.core', id: 'x' }),
    ).toEqual({ namespace: 'default', type: 'Tenants.example.org', id: 'acme' });
  });

  it('reads what a whole-world pass read once, not once per resource it wrote', async () => {
    const vms = 300;
    const source = await sourceOf(await vmNetwork(vms));
    // Count every element of a reads list looked at, over the whole trace.
    let looked = 0;
    for (const reconcile of source.record.reconciles()) {
      const reads = reconcile.reads;
      const counted = new Proxy(reads as VersionRef[], {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) looked++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      Object.defineProperty(reconcile, 'reads', { value: counted });
    }
    const nodes = traceLineage(source.resources, source.graph, source.record);
    expect(nodes.length).toBeGreaterThan(vms);
    // Linear: a few looks per read; quadratic was about vms² / 2 (45,000 here).
    const reads = source.record.reconciles().reduce((n, r) => n + r.reads.length, 0);
    expect(looked).toBeLessThan(4 * reads + 10 * nodes.length);
  });
});

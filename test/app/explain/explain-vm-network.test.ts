import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainResource } from '../../../src/app/explain/explain-resource.js';
import { explainSourceOf, runProject } from '../../../src/app/run-project.js';
import type { LineageNode } from '../../../src/app/explain/lineage.js';

const root = resolve(import.meta.dirname, '../../..');

async function explainIn(dir: string, type: string, id: string, reverse = false) {
  const run = await runProject({ cwd: root, files: [dir], record: true, stable: true });
  const outcome = run.outcome;
  if (!outcome) throw new Error('the fixture did not load');
  const source = explainSourceOf(outcome, run.manifests.resources);
  if (!source) throw new Error('not recorded');
  return explainResource(source, { namespace: 'default', type, id }, { reverse });
}

/** Every node of a lineage tree, depth first. */
function nodes(node: LineageNode): LineageNode[] {
  return [node, ...node.edges.flatMap((e) => nodes(e.node))];
}

describe('explain on fixtures/vm-network', () => {
  it('traces a NetworkConfig back to the line of its VM manifest', async () => {
    const explanation = await explainIn(
      'fixtures/vm-network',
      'NetworkConfigs.example.org',
      'web-1',
    );
    const lineage = explanation.lineage as LineageNode;
    expect(lineage.origin).toMatchObject({
      kind: 'reconcile',
      controller: 'vmnet.NetworkConfigController',
    });
    const vm = nodes(lineage).find(
      (n) => n.ref.type === 'VMs.example.org' && n.origin.kind === 'manifest',
    );
    expect(vm?.ref.id).toBe('web-1');
    expect(vm?.origin).toEqual({
      kind: 'manifest',
      position: { file: 'fixtures/vm-network/vms.yaml', line: 2, col: 1 },
    });
    expect(lineage.edges.map((e) => e.kind)).toContain('strong');
  });

  it('blames each spec field on the write that set it last', async () => {
    const explanation = await explainIn(
      'fixtures/vm-network',
      'NetworkConfigs.example.org',
      'web-1',
    );
    expect(explanation.fields.map((f) => [f.field, f.by.kind])).toEqual([
      ['/spec/bridge', 'reconcile'],
      ['/spec/hostname', 'reconcile'],
    ]);
    expect(explanation.history[0]).toMatchObject({ version: 1, by: { kind: 'reconcile' } });
  });

  it('blames a manifest field on its own line', async () => {
    const explanation = await explainIn('fixtures/vm-network', 'VMs.example.org', 'web-1');
    const cpus = explanation.fields.find((f) => f.field === '/spec/cpus');
    expect(cpus?.by).toEqual({
      kind: 'manifest',
      position: { file: 'fixtures/vm-network/vms.yaml', line: 8, col: 9 },
    });
  });

  it('with reverse, shows what a VM feeds', async () => {
    const explanation = await explainIn('fixtures/vm-network', 'VMs.example.org', 'web-1', true);
    const fed = nodes(explanation.feeds as LineageNode).map((n) => `${n.ref.type}/${n.ref.id}`);
    expect(fed).toContain('NetworkConfigs.example.org/web-1');
    expect(fed).not.toContain('NetworkConfigs.example.org/web-2');
  });
});

import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoundLines } from '../../../src/cli/ui/line-stream.js';
import { createColors } from '../../../src/cli/render/report.js';
import { controllerDetail } from '../../../src/cli/ui/controller-detail.js';
import { watchCopy, type WatchedCopy } from './watch-rounds.js';

let watched: WatchedCopy | undefined;
afterEach(async () => {
  await watched?.close();
  watched = undefined;
});

/** vm-network, with a placement that throws (a two-line error) for the VM `boom`. */
const failingForBoom = async (dir: string): Promise<void> => {
  const file = path.join(dir, 'placement.ts');
  const text = await readFile(file, 'utf8');
  await writeFile(
    file,
    text.replace(
      "const hostId = vm.spec.host ?? '';",
      "const hostId = vm.spec.host ?? '';\n        if (vm.metadata.id === 'boom') throw new Error('kaboom\\nsecond line');",
    ),
  );
};

const BOOM =
  '---\nmetadata:\n  type: vm\n  id: boom\nspec:\n  cpus: 1\n  image: debian\n  host: node-a\n';

describe('a controller that keeps failing in a watch round', () => {
  it('is a finding of the round at the manifest of the resource it gave up on, as check says it', async () => {
    watched = await watchCopy({ before: failingForBoom });
    const vms = await readFile(path.join(watched.dir, 'vms.yaml'), 'utf8');
    const view = await watched.write('vms.yaml', `${vms}${BOOM}`);
    const line = vms.split('\n').length + 1;
    expect(view.status).toBe('failing');
    const finding = view.findings.find((f) => f.code === 'reconcile-failed');
    expect(finding).toMatchObject({ file: 'vms.yaml', line, col: 1, severity: 'error' });
    expect(finding?.message).toMatch(
      /^PlacementController could not reconcile VMs\.example\.org\(default\/boom\) after 10 attempts: kaboom/,
    );
  });

  it('names the item and keeps its whole error for the controller detail', async () => {
    watched = await watchCopy({ before: failingForBoom });
    const vms = await readFile(path.join(watched.dir, 'vms.yaml'), 'utf8');
    const view = await watched.write('vms.yaml', `${vms}${BOOM}`);
    const placement = view.controllers.find((c) => c.name === 'PlacementController');
    expect(placement?.failing).toEqual([
      {
        resource: 'VMs.example.org(default/boom)',
        attempts: 10,
        error: expect.stringMatching(/^placement\.ts:\d+:\d+: kaboom\nsecond line$/) as string,
      },
    ]);
    const detail = controllerDetail(placement!).map((l) => l.text);
    expect(detail).toContain('  VMs.example.org(default/boom): given up after 10 attempts');
    expect(detail).toContain('    second line');
  });

  it('is named with its item in the line stream, beside its finding', async () => {
    watched = await watchCopy({ before: failingForBoom });
    const vms = await readFile(path.join(watched.dir, 'vms.yaml'), 'utf8');
    const view = await watched.write('vms.yaml', `${vms}${BOOM}`);
    const text = renderRoundLines(view, createColors(false));
    expect(text).toMatch(
      /^vms\.yaml:\d+:1: error\[reconcile-failed\]: PlacementController could not reconcile VMs\.example\.org\(default\/boom\)/m,
    );
    expect(text).toMatch(
      /^PlacementController: given up, 10 errors, 1 item failing: VMs\.example\.org\(default\/boom\): /m,
    );
  });

  it('is still a finding in the next round, which tries the item once more', async () => {
    watched = await watchCopy({ before: failingForBoom });
    const vms = await readFile(path.join(watched.dir, 'vms.yaml'), 'utf8');
    await watched.write('vms.yaml', `${vms}${BOOM}`);
    const next = await watched.edit('hosts.yaml', /$/, '\n# edited\n');
    expect(next.findings.map((f) => f.code)).toContain('reconcile-failed');
    expect(renderRoundLines(next, createColors(false))).toMatch(
      /^PlacementController: given up, 1 error, 1 item failing: VMs\.example\.org\(default\/boom\)/m,
    );
  });
});

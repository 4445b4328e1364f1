/**
 * A failure of an `expect` of a file of documents is placed in that file (where the document
 * is), and says which step checked it: a golden file that several steps or scenarios share
 * would otherwise fail with no word of which one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runScenarioFiles } from '../../src/testing/scenario/run-scenario-files.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-expect-file-'));
  await writeFile(
    path.join(dir, 'vms.yaml'),
    `metadata: { type: ResourceDefinitions.meta.cosi.dev, id: vms.example.org }
spec: { type: VMs.example.org, displayType: VM, defaultNamespace: default }
---
metadata: { type: vm, id: web-1 }
spec: { cpus: 2 }
`,
  );
  await writeFile(
    path.join(dir, 'expected.yaml'),
    `metadata: { type: vm, id: web-1 }
spec: { cpus: 2 }
---
metadata: { type: vm, id: web-2 }
spec: { cpus: 4 }
`,
  );
  await writeFile(
    path.join(dir, 'vms.cosi-test.yaml'),
    `name: web-2 is added
manifests: [vms.yaml]
steps:
  - apply: { metadata: { type: vm, id: web-2 }, spec: { cpus: 3 } }
  - expect: expected.yaml
`,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('names the step at its line in the scenario', async () => {
  const run = await runScenarioFiles([], { cwd: dir });
  const findings = run.result.cases.flatMap((c) => c.findings);
  expect(findings).toHaveLength(1);
  expect(findings[0]).toMatchObject({ code: 'unexpected-state', file: 'expected.yaml', line: 4 });
  expect(findings[0]?.message).toBe(
    'VMs.example.org(default/web-2) differs from the expected document (in the expect step at vms.cosi-test.yaml:5:5)',
  );
});

it('says nothing more of an inline document, whose place is the step', async () => {
  await writeFile(
    path.join(dir, 'inline.cosi-test.yaml'),
    `name: inline
manifests: [vms.yaml]
steps:
  - expect: { metadata: { type: vm, id: web-1 }, spec: { cpus: 5 } }
`,
  );
  const run = await runScenarioFiles(['inline.cosi-test.yaml'], { cwd: dir });
  const [finding] = run.result.cases.flatMap((c) => c.findings);
  expect(finding?.message).toBe(
    'VMs.example.org(default/web-1) differs from the expected document',
  );
});

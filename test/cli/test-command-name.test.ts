/**
 * `cosi test --name PATTERN` runs the scenarios whose name matches, as vitest's `-t` and
 * `go test -run` select tests: a file holds several scenarios, and the file alone was the only
 * filter. A pattern that selects none is a usage error, not a pass of nothing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const MANIFESTS = `metadata: { type: ResourceDefinitions.meta.cosi.dev, id: vms.example.org }
spec: { type: VMs.example.org, displayType: VM, defaultNamespace: default }
---
metadata: { type: vm, id: web-1 }
spec: { cpus: 2 }
`;

const SCENARIOS = `name: web-1 has two cpus
manifests: [vms.yaml]
steps:
  - expect: { metadata: { type: vm, id: web-1 }, spec: { cpus: 2 } }
---
name: web-1 has three cpus
manifests: [vms.yaml]
steps:
  - expect: { metadata: { type: vm, id: web-1 }, spec: { cpus: 3 } }
`;

describe('cosi test --name', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-test-name-'));
    await writeFile(path.join(dir, 'vms.yaml'), MANIFESTS);
    await writeFile(path.join(dir, 'vms.cosi-test.yaml'), SCENARIOS);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs only the scenarios whose name matches', async () => {
    const all = await cli(['test'], { cwd: dir });
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('scenarios: 1 passed, 1 failed');

    const two = await cli(['test', '--name', 'two'], { cwd: dir });
    expect(two.stdout).toBe('scenarios: 1 passed, 0 failed (steps: 1 passed, 0 failed)\n');
    expect(two.code).toBe(0);

    const three = await cli(['test', '--name', '^web-1 has three cpus$', '-o', 'junit'], {
      cwd: dir,
    });
    expect(three.code).toBe(1);
    expect(three.stdout).toContain('tests="1" failures="1"');
    expect(three.stdout).toContain(
      'classname="vms.cosi-test.yaml" name="web-1 has three cpus › 1. expect" file="vms.cosi-test.yaml"',
    );
    expect(three.stdout).not.toContain('two cpus');
  }, 60_000);

  it('fails as a usage error when no scenario matches, naming the scenarios there are', async () => {
    const none = await cli(['test', '--name', 'four'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stdout).toContain(
      `no scenario's name matches --name "four" (the scenarios: web-1 has two cpus, web-1 has three cpus)`,
    );
  }, 60_000);

  it('refuses a pattern that is no regular expression', async () => {
    const bad = await cli(['test', '--name', '('], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--name: invalid regular expression "("');
  }, 60_000);
});

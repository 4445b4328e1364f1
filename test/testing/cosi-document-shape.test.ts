/**
 * A chainsaw or kuttl habit: an `expect` written Kubernetes-shaped (`apiVersion`, `kind`,
 * `metadata.name`) of a resource of a cosi type. Its kind resolved the resource (as an alias),
 * but a cosi type has no apiVersion or kind, so the expectation could never match, and the
 * failure read as a wrong value, with a diff against a document of another shape.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runScenarioFiles } from '../../src/testing/scenario/run-scenario-files.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures');

describe('a Kubernetes-shaped expectation', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function failuresOf(scenario: string, fixture: string) {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-shape-'));
    await cp(path.join(fixtures, fixture), path.join(dir, 'project'), { recursive: true });
    await writeFile(path.join(dir, 'project', 'shape.cosi-test.yaml'), scenario);
    const run = await runScenarioFiles([], { cwd: path.join(dir, 'project') });
    return run.result.cases.flatMap((c) => c.findings);
  }

  it('of a cosi type says to write it as cosi get prints it', async () => {
    const findings = await failuresOf(
      `name: kubernetes-shaped
manifests: .
steps:
  - expect:
      apiVersion: example.org/v1
      kind: NetworkConfig
      metadata: { name: web-1 }
      spec: { bridge: br-debian }
`,
      'vm-network',
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ code: 'unexpected-state', line: 5 });
    expect(findings[0]?.message).toContain(
      '; NetworkConfigs.example.org is a cosi type, with no apiVersion or kind: its document is matched as cosi get -o yaml prints it, so write metadata: { type: NetworkConfigs.example.org, id: web-1 } instead of apiVersion, kind, metadata.name',
    );
  });

  it('of a Kubernetes kind gets no such note', async () => {
    const findings = await failuresOf(
      `name: kubernetes kind
manifests: .
steps:
  - expect:
      apiVersion: v1
      kind: ConfigMap
      metadata: { name: shop-settings }
      data: { wrong: value }
`,
      'kubernetes',
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.code).toBe('unexpected-state');
    expect(findings[0]?.message).not.toContain('is a cosi type');
  });
});

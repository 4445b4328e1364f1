import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { definitionResource } from '../../src/app/definition-resource.js';
import { projectFingerprint } from '../../src/app/project-fingerprint.js';
import { loadProjectConfig } from '../../src/app/project-config.js';
import { readProjectManifests } from '../../src/app/read-project-manifests.js';
import { describeFingerprintDifference } from '../../src/state-etcd/project-fingerprint.js';
import { createDefinition } from '../../src/engine/resource/definition.js';

describe('a definition as the state stores it', () => {
  it('holds its schema frozen, the same object each time (the worlds of check --each share it)', () => {
    const definition = createDefinition({
      type: 'Widgets.example.com',
      schema: { type: 'object', properties: { size: { type: 'integer' } } },
    });
    const first = definitionResource(definition).spec as { schema: object };
    const second = definitionResource(definition).spec as { schema: object };
    expect(second.schema).toBe(first.schema);
    expect(Object.isFrozen(first.schema)).toBe(true);
    expect(first.schema).toEqual(definition.schema);
    // The definition's own schema is left as it was.
    expect(Object.isFrozen(definition.schema)).toBe(false);
  });
});

describe('the kind of a kro RGD, as the state stores it and as processes compare it', () => {
  const REPO = path.resolve(import.meta.dirname, '../..');
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  /** The kro example with `edit` applied to its RGD's text: its WebApp kind. */
  async function webAppKind(edit: (rgd: string) => string = (rgd) => rgd) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-rgd-kind-'));
    dirs.push(dir);
    await cp(path.join(REPO, 'fixtures/kro-webapp'), dir, { recursive: true });
    const rgd = path.join(dir, 'rgd.yaml');
    await writeFile(rgd, edit(await readFile(rgd, 'utf8')));
    const options = { cwd: dir, files: [dir], stable: true };
    const read = await readProjectManifests(options, await loadProjectConfig(options));
    expect(read.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const kind = read.registry.get('WebApps.kro.run');
    if (kind === undefined) throw new Error('no WebApp kind');
    return { kind, registry: read.registry };
  }
  const addPortName = (rgd: string): string => {
    const port = '                    - containerPort: ${schema.spec.port}\n';
    expect(rgd).toContain(port);
    return rgd.replace(port, `${port}                      name: http\n`);
  };

  it('stores the graph as written: an edit to a template changes the stored kind', async () => {
    const { kind } = await webAppKind();
    const spec = definitionResource(kind).spec as {
      resourceGraph: { name: string; resources: { id: string }[]; status: object };
    };
    expect(spec.resourceGraph.name).toBe('webapp.kro.run');
    expect(spec.resourceGraph.resources.map((r) => r.id)).toEqual([
      'deployment',
      'service',
      'ingress',
    ]);
    expect(Object.keys(spec.resourceGraph.status)).toEqual(['deploymentName', 'availableReplicas']);
    const edited = await webAppKind(addPortName);
    expect(definitionResource(edited.kind).spec).not.toEqual(definitionResource(kind).spec);
  });

  it('fingerprints a template edit as another config', async () => {
    const one = await webAppKind();
    const other = await webAppKind(addPortName);
    const same = await webAppKind();
    const print = (registry: typeof one.registry) => projectFingerprint(registry, [], 'test');
    expect(print(other.registry).digest).not.toBe(print(one.registry).digest);
    expect(print(same.registry).digest).toBe(print(one.registry).digest);
    expect(describeFingerprintDifference(print(one.registry), print(other.registry))).toMatch(
      /^types \+WebApps\.kro\.run@\w+ -WebApps\.kro\.run@\w+$/,
    );
  });
});

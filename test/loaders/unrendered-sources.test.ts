/**
 * Helm charts and kustomize files met while walking manifest directories: set aside, not read
 * as manifests, and said (`unrendered-sources.ts`, `walk-manifest-tree.ts`).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifests } from '../../src/loaders/manifest-reader.js';
import { formatUnrenderedCounts } from '../../src/loaders/unrendered-counts.js';
import { isJsonManifest } from '../../src/loaders/json-manifests.js';
import { kustomizationInputs } from '../../src/loaders/kustomization-inputs.js';
import { walkManifestTree } from '../../src/loaders/walk-manifest-tree.js';
import { writeBelow } from '../support/write-below.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const FIXTURE = 'fixtures/manifest-repo';

describe('kustomizationInputs', () => {
  const at = '/repo/overlay/kustomization.yaml';
  const inputs = (text: string) => kustomizationInputs(text, 'overlay/kustomization.yaml', at);

  it('names every file kustomize reads as other than a resource, resolved beside it', () => {
    const { files, finding } = inputs(
      [
        'resources: [../base, extra.yaml]',
        'crds: [crd.yaml]',
        'components: [../component]',
        'patches:',
        '  - path: p1.yaml',
        '  - p2.yaml',
        '  - patch: |-',
        '      - op: add',
        '        path: /x',
        '        value: 1',
        '    target: {kind: Deployment}',
        'patchesStrategicMerge:',
        '  - p3.yaml',
        '  - |-',
        '    apiVersion: v1',
        '    kind: ConfigMap',
        'patchesJson6902: [{path: p4.yaml, target: {kind: Service}}]',
        'replacements: [{path: r.yaml}]',
        'configurations: [c.yaml]',
        'transformers: [t.yaml]',
        'generators: [g.yaml]',
        'validators: [v.yaml]',
        'openapi: {path: schema.json}',
        'configMapGenerator:',
        '  - name: a',
        '    files: [settings.yaml=s.yaml, plain.yaml]',
        '    envs: [e.env]',
        'secretGenerator:',
        '  - name: b',
        '    env: legacy.env',
      ].join('\n'),
    );
    expect(finding).toBeUndefined();
    expect(files.map((f) => path.relative('/repo/overlay', f)).sort()).toEqual(
      [
        'p1.yaml',
        'p2.yaml',
        'p3.yaml',
        'p4.yaml',
        'r.yaml',
        'c.yaml',
        't.yaml',
        'g.yaml',
        'v.yaml',
        'schema.json',
        's.yaml',
        'plain.yaml',
        'e.env',
        'legacy.env',
      ].sort(),
    );
  });

  it('reports a kustomization that is not YAML at its line, and names nothing', () => {
    const { files, finding } = inputs('patches:\n  - path: [a\n');
    expect(files).toEqual([]);
    expect(finding).toMatchObject({
      code: 'yaml-syntax',
      severity: 'error',
      file: 'overlay/kustomization.yaml',
    });
    expect(finding?.line).toBeGreaterThan(0);
  });

  it('finds the keys written in flow style or quoted too', () => {
    const names = (text: string) => inputs(text).files.map((f) => path.basename(f));
    expect(names('{resources: [a.yaml], "patches": [{path: p.yaml}]}')).toEqual(['p.yaml']);
    expect(names("'openapi': {path: s.json}\n")).toEqual(['s.json']);
    expect(names('resources: [patches.yaml]\n')).toEqual([]);
  });

  it('names the patches a comment names below a patch key, as kubebuilder leaves them', () => {
    const { files, commented } = inputs(
      [
        'namespace: system',
        'resources:',
        '- bases/clusters.yaml',
        '#- bases/disabled-resource.yaml',
        'bases:',
        '#- ../webhook',
        'patches:',
        '- path: patches/live.yaml',
        '# [WEBHOOK] To enable webhook, uncomment all the sections with [WEBHOOK] prefix.',
        '#- path: patches/webhook_in_clusters.yaml',
        '#  target:',
        '#    kind: CustomResourceDefinition',
        '#- target:',
        '#    kind: CustomResourceDefinition',
        '#  path: "patches/cainjection_in_clusters.yaml"',
        '#patchesStrategicMerge:',
        '# - manager_auth_proxy_patch.yaml # protects /metrics',
        '  # Only one of them should be enabled.',
        '#- manager_prometheus_metrics_patch.yaml',
        '# Note: this is prose, not a key',
        '#- webhookcainjection_patch.yaml',
        '#vars:',
        '#- certificate.yaml',
        'configurations:',
        '#- kustomizeconfig.yaml',
      ].join('\n'),
    );
    expect(files.map((f) => path.relative('/repo/overlay', f))).toEqual(['patches/live.yaml']);
    expect(commented.map((f) => path.relative('/repo/overlay', f))).toEqual([
      'patches/webhook_in_clusters.yaml',
      'patches/cainjection_in_clusters.yaml',
      'manager_auth_proxy_patch.yaml',
      'manager_prometheus_metrics_patch.yaml',
      'webhookcainjection_patch.yaml',
    ]);
    // With no live key that names inputs, the comments are read all the same.
    expect(inputs('resources: [a.yaml]\n#patchesStrategicMerge:\n#- p.yaml\n').commented).toEqual([
      '/repo/overlay/p.yaml',
    ]);
  });

  it('names its resources apart, even when it names nothing else', () => {
    expect(inputs('resources: [../base, d.yaml]\n').resources).toEqual([
      '/repo/base',
      '/repo/overlay/d.yaml',
    ]);
    expect(inputs('resources: [d.yaml]\npatches: [{path: d.yaml}]\n')).toMatchObject({
      files: ['/repo/overlay/d.yaml'],
      resources: ['/repo/overlay/d.yaml'],
    });
    // Not YAML, and naming resources only: kustomize's to report.
    expect(inputs('resources: [a.yaml\n')).toEqual({ files: [], resources: [], commented: [] });
  });

  it('takes a document that is not a mapping, or odd values, as naming nothing', () => {
    expect(inputs('- a\n- b\n').files).toEqual([]);
    expect(inputs('patches: 3\nconfigurations: {a: b}\nopenapi: 7\n').files).toEqual([]);
    expect(inputs('').files).toEqual([]);
  });
});

describe('walking a repository with a Helm chart and kustomize', () => {
  it('sets aside only what a kustomization names below its own root, as kustomize loads no other file by default: a manifest elsewhere stays checked', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kustomize-root-'));
    try {
      await mkdir(path.join(dir, 'overlays/prod'), { recursive: true });
      await mkdir(path.join(dir, 'manifests'), { recursive: true });
      await writeFile(
        path.join(dir, 'overlays/prod/kustomization.yaml'),
        'resources: [../../manifests]\npatches:\n  - path: ../../manifests/live.yaml\n#  - path: ../../manifests/web.yaml\n  - path: replicas.yaml\n',
      );
      await writeFile(
        path.join(dir, 'overlays/prod/replicas.yaml'),
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec: { replicas: 3 }\n',
      );
      const bad = 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: NAME }\ndata: { a: 1 }\n';
      await writeFile(path.join(dir, 'manifests/web.yaml'), bad.replace('NAME', 'web'));
      await writeFile(path.join(dir, 'manifests/live.yaml'), bad.replace('NAME', 'live'));
      const read = await readManifests(['.'], { cwd: dir });
      expect(read.unrendered.map((u) => [u.path, u.kind])).toEqual([
        ['overlays/prod/kustomization.yaml', 'kustomization'],
        ['overlays/prod/replicas.yaml', 'kustomize-input'],
      ]);
      expect(read.findings.filter((f) => f.severity === 'error').map((f) => f.file)).toEqual([
        'manifests/live.yaml',
        'manifests/web.yaml',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the files of a directory named on the command line whatever a kustomization above it names them', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kustomize-named-'));
    try {
      await writeBelow(
        dir,
        'kustomization.yaml',
        'resources: [base/ok.yaml]\npatches:\n  - path: manifests/live.yaml\n#  - path: manifests/web.yaml\n  - path: base/replicas.yaml\n',
      );
      const bad = 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: NAME }\ndata: { a: 1 }\n';
      await writeBelow(
        dir,
        'base/ok.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ok }\n',
      );
      await writeBelow(dir, 'base/replicas.yaml', bad.replace('NAME', 'replicas'));
      await writeBelow(dir, 'manifests/web.yaml', bad.replace('NAME', 'web'));
      await writeBelow(dir, 'manifests/live.yaml', bad.replace('NAME', 'live'));
      const root = await walkManifestTree(['.'], { cwd: dir });
      expect(root.files.map((f) => f.display)).toEqual(['base/ok.yaml']);
      const named = await walkManifestTree(['.', 'manifests'], { cwd: dir });
      expect(named.files.map((f) => f.display)).toEqual([
        'base/ok.yaml',
        'manifests/live.yaml',
        'manifests/web.yaml',
      ]);
      // Only the named directory: what the kustomization names elsewhere stays aside.
      expect(named.unrendered.map((u) => [u.path, u.kind])).toEqual([
        ['base/replicas.yaml', 'kustomize-input'],
        ['kustomization.yaml', 'kustomization'],
      ]);
      // A kustomization inside the named directory still sets its own patches aside.
      await writeBelow(dir, 'manifests/kustomization.yaml', 'patches:\n  - path: web.yaml\n');
      const inside = await walkManifestTree(['.', 'manifests'], { cwd: dir });
      expect(inside.files.map((f) => f.display)).toEqual(['base/ok.yaml', 'manifests/live.yaml']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the manifests and the charts’ crds/, and sets the rest aside', async () => {
    const tree = await walkManifestTree([FIXTURE], { cwd: REPO });
    const rel = (p: string) => path.relative(FIXTURE, p);
    expect(tree.findings).toEqual([]);
    expect(tree.files.map((f) => rel(f.display))).toEqual([
      'base/deployment.yaml',
      'chart/charts/sub/crds/gadgets.yaml',
      'chart/crds/widgets.yaml',
      'overlays/prod/monitoring.yaml',
      'widgets.yaml',
    ]);
    expect(tree.unrendered.map((u) => [rel(u.path), u.kind, rel(u.file)])).toEqual([
      ['base/kustomization.yaml', 'kustomization', 'base/kustomization.yaml'],
      // The subchart is set aside with its chart, not said again.
      ['chart', 'helm-chart', 'chart/Chart.yaml'],
      ['overlays/prod/kustomization.yaml', 'kustomization', 'overlays/prod/kustomization.yaml'],
      ['overlays/prod/probes.yaml', 'kustomize-input', 'overlays/prod/probes.yaml'],
      ['overlays/prod/replicas.yaml', 'kustomize-input', 'overlays/prod/replicas.yaml'],
      [
        'overlays/prod/resources-patch.yaml',
        'kustomize-input',
        'overlays/prod/resources-patch.yaml',
      ],
      ['overlays/prod/web-settings.yaml', 'kustomize-input', 'overlays/prod/web-settings.yaml'],
    ]);
    const chart = tree.unrendered.find((u) => u.kind === 'helm-chart');
    expect(chart?.message).toContain(`helm template ${FIXTURE}/chart | cosi check -f -`);
    const patch = tree.unrendered.find((u) => u.path.endsWith('replicas.yaml'));
    expect(patch?.message).toContain(`${FIXTURE}/overlays/prod/kustomization.yaml`);
    expect(formatUnrenderedCounts(tree.unrendered)).toBe(
      '1 Helm chart, 2 kustomizations, 4 kustomize patches and configurations',
    );
  });

  it('reads a file given by name (or matched by a glob) whatever it is', async () => {
    const patch = `${FIXTURE}/overlays/prod/replicas.yaml`;
    const named = await walkManifestTree([FIXTURE, patch, `${FIXTURE}/chart/values.yaml`], {
      cwd: REPO,
    });
    expect(named.files.map((f) => f.display)).toContain(patch);
    expect(named.files.map((f) => f.display)).toContain(`${FIXTURE}/chart/values.yaml`);
    expect(named.unrendered.map((u) => u.path)).not.toContain(patch);
    const globbed = await walkManifestTree([`${FIXTURE}/chart/templates/*.yaml`], { cwd: REPO });
    expect(globbed.files.map((f) => f.display)).toEqual([
      `${FIXTURE}/chart/templates/service.yaml`,
    ]);
    expect(globbed.unrendered).toEqual([]);
  });

  it('sets a kustomization file aside even given by name (a shell glob, `cosi check *.yaml`)', async () => {
    const file = `${FIXTURE}/overlays/prod/kustomization.yaml`;
    const named = await walkManifestTree([file, `${FIXTURE}/overlays/prod/replicas.yaml`], {
      cwd: REPO,
    });
    expect(named.files.map((f) => f.display)).toEqual([`${FIXTURE}/overlays/prod/replicas.yaml`]);
    expect(named.unrendered.map((u) => [u.path, u.kind])).toEqual([[file, 'kustomization']]);
  });

  it('sets a kustomization aside once when a glob matches it and its directory (**)', async () => {
    const file = `${FIXTURE}/overlays/prod/kustomization.yaml`;
    const tree = await walkManifestTree([`${FIXTURE}/overlays/prod`, file], { cwd: REPO });
    expect(tree.unrendered.filter((u) => u.kind === 'kustomization').map((u) => u.path)).toEqual([
      file,
    ]);
    const globbed = await walkManifestTree([`${FIXTURE}/overlays/**`], { cwd: REPO });
    // The patches the glob matches are named, so read.
    expect(formatUnrenderedCounts(globbed.unrendered)).toBe('1 kustomization');
  });

  it('treats a chart given as the directory to walk as a chart', async () => {
    const tree = await walkManifestTree([`${FIXTURE}/chart`], { cwd: REPO });
    expect(tree.files.map((f) => f.display)).toEqual([
      `${FIXTURE}/chart/charts/sub/crds/gadgets.yaml`,
      `${FIXTURE}/chart/crds/widgets.yaml`,
    ]);
    expect(tree.unrendered.map((u) => u.path)).toEqual([`${FIXTURE}/chart`]);
  });
});

describe('kustomize files in a temporary tree', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-unrendered-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = (file: string, text: string) => writeBelow(dir, file, text);

  it('knows the file named Kustomization, and reports one that is not YAML', async () => {
    await write('a/Kustomization', 'patches:\n  - path: p.yaml\n');
    await write('a/p.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p}\n');
    await write('b/kustomization.yml', 'patches: [\n');
    await write('b/p.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: q}\n');
    const tree = await walkManifestTree(['.'], { cwd: dir });
    expect(tree.files.map((f) => f.display)).toEqual(['b/p.yaml']);
    expect(tree.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['a/Kustomization', 'kustomization'],
      ['a/p.yaml', 'kustomize-input'],
      ['b/kustomization.yml', 'kustomization'],
    ]);
    expect(tree.findings.map((f) => [f.code, f.file])).toEqual([
      ['yaml-syntax', 'b/kustomization.yml'],
    ]);
  });

  it('checks a file named as a kustomization that holds an object of another kind, walked or named: kustomize refuses it, so nothing else would', async () => {
    await write(
      'clusters/kustomization.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {x: 1}\n',
    );
    // Kustomizations, with their kind or without one (kustomize needs none), stay aside.
    await write(
      'apps/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
    );
    await write(
      'parts/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n',
    );
    await write('base/kustomization.yaml', 'resources: []\n');
    const tree = await walkManifestTree(['.'], { cwd: dir });
    expect(tree.files.map((f) => f.display)).toEqual(['clusters/kustomization.yaml']);
    expect(tree.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['apps/kustomization.yaml', 'kustomization'],
      ['base/kustomization.yaml', 'kustomization'],
      ['parts/kustomization.yaml', 'kustomization'],
    ]);
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => [f.code, f.file])).toEqual([
      ['schema-violation', 'clusters/kustomization.yaml'],
    ]);
    const named = await readManifests(['clusters/kustomization.yaml'], { cwd: dir });
    expect(named.findings.map((f) => [f.code, f.file])).toEqual([
      ['schema-violation', 'clusters/kustomization.yaml'],
    ]);
    expect(named.unrendered).toEqual([]);
  });

  it('sets aside the patches a kustomization names in comments only, and reads the rest', async () => {
    await writeFile(
      path.join(dir, 'kustomization.yaml'),
      'resources: [crd.yaml]\npatches:\n#- path: patches/webhook_in_clusters.yaml\n',
    );
    await writeFile(
      path.join(dir, 'crd.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
    );
    // kubebuilder's conversion-webhook patch: a CustomResourceDefinition without group or names.
    await mkdir(path.join(dir, 'patches'));
    await writeFile(
      path.join(dir, 'patches/webhook_in_clusters.yaml'),
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: clusters.example.com}\nspec:\n  conversion: {strategy: Webhook}\n',
    );
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings).toEqual([]);
    expect(read.resources.map((r) => r.resource.metadata.id)).toEqual(['a']);
    const patch = read.unrendered.find((u) => u.kind === 'kustomize-input');
    expect(patch?.path).toBe('patches/webhook_in_clusters.yaml');
    expect(patch?.message).toMatch(/^a patch that kustomization.yaml names in a comment/);
    // Named, it is read as written.
    const named = await readManifests(['patches/webhook_in_clusters.yaml'], { cwd: dir });
    expect(named.findings.map((f) => f.code)).toContain('invalid-definition');
  });

  it("reads a file a kustomization lists as a resource, whatever a patch line (live, commented out, or another kustomization's) names it", async () => {
    const bad = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: NAME}\ndata: {a: 1}\n';
    await write('kustomization.yaml', 'resources: [d.yaml]\npatches:\n- path: d.yaml\n');
    await write('d.yaml', bad.replace('NAME', 'd'));
    await write(
      'app/kustomization.yaml',
      'resources:\n- base/e.yaml\n#patches:\n#- path: base/e.yaml\n',
    );
    await write('app/base/e.yaml', bad.replace('NAME', 'e'));
    // A base lists it; an overlay above patches it.
    await write('x/base/kustomization.yaml', 'resources: [f.yaml]\n');
    await write('x/base/f.yaml', bad.replace('NAME', 'f'));
    await write('x/base/p.yaml', bad.replace('NAME', 'p'));
    await write(
      'x/kustomization.yaml',
      'resources: [base]\npatches:\n- path: base/f.yaml\n- path: base/p.yaml\n',
    );
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.filter((f) => f.severity === 'error').map((f) => f.file)).toEqual([
      'app/base/e.yaml',
      'd.yaml',
      'x/base/f.yaml',
    ]);
    expect(read.unrendered.filter((u) => u.kind === 'kustomize-input').map((u) => u.path)).toEqual([
      'x/base/p.yaml',
    ]);
  });

  it("reads a file a kustomization lists as a resource in a Helm chart's directory (argo-cd's redis-ha/chart/upstream.yaml), hidden or in test data, and the chart's note no longer names it", async () => {
    const bad = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: NAME}\ndata: {a: 1}\n';
    await write(
      'redis-ha/kustomization.yaml',
      'resources:\n- chart/upstream.yaml\n- .rendered/all.yaml\n- testdata/t.yaml\n- chart/templates/s.yaml\n- chart\n- ../outside.yaml\n',
    );
    await write('redis-ha/chart/Chart.yaml', 'apiVersion: v2\nname: redis-ha\nversion: 1.0.0\n');
    await write('redis-ha/chart/upstream.yaml', bad.replace('NAME', 'upstream'));
    await write('redis-ha/chart/extra.yaml', bad.replace('NAME', 'extra'));
    await write('redis-ha/chart/templates/s.yaml', 'kind: {{ .Values.kind }}\n');
    await write('redis-ha/.rendered/all.yaml', bad.replace('NAME', 'hidden'));
    await write('redis-ha/testdata/t.yaml', bad.replace('NAME', 't'));
    await write('redis-ha/testdata/u.yaml', bad.replace('NAME', 'u'));
    await write('outside.yaml', bad.replace('NAME', 'outside'));
    const read = await readManifests(['redis-ha'], { cwd: dir });
    expect([
      ...new Set(read.findings.filter((f) => f.severity === 'error').map((f) => f.file)),
    ]).toEqual([
      'redis-ha/.rendered/all.yaml',
      'redis-ha/chart/templates/s.yaml',
      'redis-ha/chart/upstream.yaml',
      'redis-ha/testdata/t.yaml',
    ]);
    const chart = read.unrendered.find((u) => u.kind === 'helm-chart');
    expect(chart?.message).toContain(
      '; redis-ha/chart/extra.yaml is not read either (name it to check it: cosi check redis-ha/chart/extra.yaml)',
    );
    // An ignore pattern still has the last word.
    const ignored = await readManifests(['redis-ha'], { cwd: dir, ignore: ['upstream.yaml'] });
    expect(ignored.findings.map((f) => f.file)).not.toContain('redis-ha/chart/upstream.yaml');
  });

  it("names in a chart's note the YAML files at its root Helm does not read, with its other directories", async () => {
    await write('chart/Chart.yaml', 'apiVersion: v2\nname: c\nversion: 1.0.0\n');
    await write('chart/values.yaml', 'replicas: 1\n');
    await write('chart/values-prod.yaml', 'replicas: 3\n');
    await write('chart/requirements.yaml', 'dependencies: []\n');
    await write('chart/namespace.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n');
    await write('chart/templates/a.yaml', 'kind: {{ .Values.kind }}\n');
    await write('chart/extra/b.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n');
    const tree = await walkManifestTree(['.'], { cwd: dir });
    const chart = tree.unrendered.find((u) => u.kind === 'helm-chart');
    expect(chart?.message).toContain(
      '; chart/extra/, chart/namespace.yaml are not read either (name one to check it: cosi check chart/extra)',
    );
  });

  it('walks a directory whose Chart.yaml is a Kubernetes object, not a chart, as any other', async () => {
    const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n';
    await write('app/Chart.yaml', deployment);
    await write('app/m/x.yaml', deployment.replace('name: d', 'name: x'));
    await write('chart/Chart.yaml', 'apiVersion: v2\nname: c\nversion: 1.0.0\n');
    await write('chart/templates/a.yaml', 'kind: {{ .Values.kind }}\n');
    const tree = await walkManifestTree(['.'], { cwd: dir });
    expect(tree.files.map((f) => f.display)).toEqual(['app/Chart.yaml', 'app/m/x.yaml']);
    expect(tree.unrendered.map((u) => u.path)).toEqual(['chart']);
  });

  it('says what was set aside when nothing else is there to read', async () => {
    await write('chart/Chart.yaml', 'apiVersion: v2\nname: c\nversion: 1.0.0\n');
    await write('chart/templates/a.yaml', 'kind: {{ .Values.kind }}\n');
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.unrendered.map((u) => u.path)).toEqual(['chart']);
    const empty = read.findings.find((f) => f.code === 'empty-input');
    expect(empty?.message).toBe(
      'no manifest files found; set aside as manifests only once rendered: chart (Helm chart)',
    );
  });
});

describe('JSON files met in a directory', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-json-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = (file: string, text: string) => writeBelow(dir, file, text);

  it('reads JSON manifests, as kubectl and kubeconform do, and sets other JSON aside', async () => {
    await write(
      'out/app.json',
      '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}',
    );
    await write('out/list.JSON', '{"kind": "List", "items": []}');
    // A cosi document, as `cosi get vm web-1 -o json` prints one.
    await write('out/vm.json', '{"metadata": {"type": "vm", "id": "j"}, "spec": {"cpus": 0}}');
    // Not strict JSON, but it may be a manifest: read, so that its mistake is reported.
    await write('out/broken.json', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}');
    await write('package.json', '{"name": "repo", "version": "1.0.0"}');
    // A JSON Schema of a kind names apiVersion and kind, but not at its top level.
    await write('schemas/configmap-v1.json', '{"properties": {"apiVersion": {}, "kind": {}}}');
    await write('tsconfig.json', '{\n  // comments: JSONC\n  "compilerOptions": {}\n}');
    await write('data.json', '[{"apiVersion": "v1"}]');
    // An array of Kubernetes objects: meant as manifests, and refused as kubectl refuses it.
    await write(
      'out/array.json',
      '[{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}]',
    );
    // Data, not text: set aside, not an unreadable manifest.
    await writeFile(path.join(dir, 'blob.json'), Buffer.from([0xff, 0xfe, 0x00, 0x7b]));
    await write('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n');
    const tree = await walkManifestTree(['.'], { cwd: dir });
    expect(tree.findings).toEqual([]);
    expect(tree.files.map((f) => f.display)).toEqual([
      'cm.yaml',
      'out/app.json',
      'out/array.json',
      'out/broken.json',
      'out/list.JSON',
      'out/vm.json',
    ]);
    expect(tree.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['blob.json', 'json-file'],
      ['data.json', 'json-file'],
      ['package.json', 'json-file'],
      ['schemas/configmap-v1.json', 'json-file'],
      ['tsconfig.json', 'json-file'],
    ]);
    expect(formatUnrenderedCounts(tree.unrendered)).toBe('5 JSON files that are no manifests');

    const read = await readManifests(['.'], { cwd: dir });
    expect(read.resources.map((r) => r.resource.metadata.id).sort()).toEqual(['a', 'b']);
    expect(read.findings.map((f) => [f.code, f.file])).toEqual([
      ['not-a-mapping', 'out/array.json'],
      ['yaml-syntax', 'out/broken.json'],
      // Read, and checked: no definition of `vm` here.
      ['unknown-type', 'out/vm.json'],
    ]);
  });

  it('reads a .json file written as YAML flow (unquoted or single-quoted keys), so that kubectl refusing it is reported', async () => {
    // kubectl reads a .json file as JSON: these are refused there, and were set aside here.
    await write(
      'm/deploy.json',
      '{apiVersion: apps/v1, kind: Deployment, metadata: {name: web5}, spec: {replicas: many}}',
    );
    await write(
      'm/single.json',
      "{'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'c'}, 'data': {'x': 1}}",
    );
    // A comment that says the word is no key.
    await write('tsconfig.json', '{\n  // the kind: of build\n  "compilerOptions": {}\n}');
    const tree = await walkManifestTree(['.'], { cwd: dir });
    expect(tree.files.map((f) => f.display)).toEqual(['m/deploy.json', 'm/single.json']);
    expect(tree.unrendered.map((u) => [u.path, u.kind])).toEqual([['tsconfig.json', 'json-file']]);
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => f.file)).toContain('m/deploy.json');
    expect(read.findings.map((f) => f.file)).toContain('m/single.json');
  });

  it('reads a JSON file given by name whatever it is', async () => {
    await write('package.json', '{"name": "repo"}');
    const tree = await walkManifestTree(['package.json'], { cwd: dir });
    expect(tree.files.map((f) => f.display)).toEqual(['package.json']);
    expect(tree.unrendered).toEqual([]);
  });

  it('says a directory of JSON that is no manifest is empty, and what it set aside', async () => {
    await write('package.json', '{"name": "repo"}');
    const read = await readManifests(['.'], { cwd: dir });
    const empty = read.findings.find((f) => f.code === 'empty-input');
    expect(empty?.message).toBe(
      'no manifest files found; set aside: package.json (JSON file that is no manifest)',
    );
  });
});

describe('files other tools read by their name', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-tool-files-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = (file: string, text: string) => writeBelow(dir, file, text);

  it("sets a repository's CI, docs and packaging files aside, and reads the rest", async () => {
    await write('mkdocs.yml', 'site_name: docs\nsite_url: !ENV SITE_URL\n');
    await write('codecov.yml', 'coverage:\n  status: off\n');
    await write('images/app/cloudbuild.yaml', 'steps:\n  - name: gcr.io/cloud-builders/docker\n');
    await write('chart-values/values.yaml', 'replicas: 3\n');
    // An apiVersion and kind of its own, which no CRD defines.
    await write('skaffold.yaml', 'apiVersion: skaffold/v4beta6\nkind: Config\n');
    await write('policies/require-labels/artifacthub-pkg.yml', 'name: require-labels\n');
    await write(
      'bundle/metadata/annotations.yaml',
      'annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n',
    );
    // The same name elsewhere is no tool's: read, and said to be no manifest.
    await write('docs/annotations.yaml', 'annotations: {}\n');
    await write('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
    // Named as no tool names its file: read, and said to be no manifest.
    await write('values-prod.yaml', 'replicas: 5\n');
    const tree = await walkManifestTree(['.'], { cwd: dir });
    expect(tree.files.map((f) => f.display)).toEqual([
      'cm.yaml',
      'docs/annotations.yaml',
      'values-prod.yaml',
    ]);
    expect(tree.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['bundle/metadata/annotations.yaml', 'tool-file'],
      ['chart-values/values.yaml', 'tool-file'],
      ['codecov.yml', 'tool-file'],
      ['images/app/cloudbuild.yaml', 'tool-file'],
      ['mkdocs.yml', 'tool-file'],
      ['policies/require-labels/artifacthub-pkg.yml', 'tool-file'],
      ['skaffold.yaml', 'tool-file'],
    ]);
    expect(tree.unrendered.find((u) => u.path === 'mkdocs.yml')?.message).toBe(
      'by its file name, a MkDocs site configuration, not a manifest; name the file to check it as one',
    );
    expect(formatUnrenderedCounts(tree.unrendered)).toBe("7 other tools' files");

    const read = await readManifests(['.'], { cwd: dir });
    expect(read.resources.map((r) => r.resource.metadata.id)).toEqual(['a']);
    expect(read.findings.map((f) => [f.code, f.file])).toEqual([
      ['missing-field', 'docs/annotations.yaml'],
      ['missing-field', 'values-prod.yaml'],
    ]);
  });

  it('checks a file so named that holds a Kubernetes object: the name alone does not set it aside', async () => {
    const invalid =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: NAME}\nspec: {replicas: "many"}\n';
    await write('app/values.yaml', invalid.replace('NAME', 'a'));
    await write('app/compose.yaml', invalid.replace('NAME', 'b'));
    await write(
      'app/ct.yaml',
      `# chart-testing? no: a Deployment\n---\n${invalid.replace('NAME', 'c')}`,
    );
    // Each tool's own: Helm values, a compose file, a Skaffold configuration, a Kyverno test's
    // values, a Backstage entity.
    await write('chart-values/values.yaml', 'replicaCount: 1\nkind: web\n');
    await write('compose.yaml', 'services:\n  web: {image: nginx}\n');
    await write('skaffold.yaml', 'apiVersion: skaffold/v4beta6\nkind: Config\n');
    await write('test/values.yaml', 'apiVersion: cli.kyverno.io/v1alpha1\nkind: Values\n');
    await write(
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: {name: c}\n',
    );
    const tree = await walkManifestTree(['.'], { cwd: dir });
    expect(tree.files.map((f) => f.display)).toEqual([
      'app/compose.yaml',
      'app/ct.yaml',
      'app/values.yaml',
    ]);
    expect(tree.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['catalog-info.yaml', 'tool-file'],
      ['chart-values/values.yaml', 'tool-file'],
      ['compose.yaml', 'tool-file'],
      ['skaffold.yaml', 'tool-file'],
      ['test/values.yaml', 'tool-file'],
    ]);
    const read = await readManifests(['app'], { cwd: dir });
    expect(new Set(read.findings.map((f) => f.file))).toEqual(
      new Set(['app/compose.yaml', 'app/ct.yaml', 'app/values.yaml']),
    );
  });

  it('reads such a file given by name, as a manifest', async () => {
    await write('mkdocs.yml', 'site_name: docs\n');
    const read = await readManifests(['mkdocs.yml'], { cwd: dir });
    expect(read.unrendered).toEqual([]);
    expect(read.findings.map((f) => [f.code, f.file])).toEqual([['missing-field', 'mkdocs.yml']]);
  });

  it('says a directory of them alone is empty, and what it set aside', async () => {
    await write('mkdocs.yml', 'site_name: docs\n');
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => f.message)).toEqual([
      "no manifest files found; set aside: mkdocs.yml (other tool's file)",
    ]);
  });
});

describe('hidden directories', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-hidden-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = (file: string, text: string) => writeBelow(dir, file, text);
  const run = (name: string) =>
    `apiVersion: tekton.dev/v1\nkind: PipelineRun\nmetadata: {name: ${name}}\nspec: {}\n`;

  it("says a hidden directory that holds Kubernetes objects (Pipelines-as-Code's .tekton/), which the walk skips, and checks it when named (review gate5 4)", async () => {
    await write('.tekton/release.yaml', run('release'));
    await write('.tekton/push.yaml', run('push'));
    await write('.tekton/README.md', '# runs\n');
    await write('.github/dependabot.yml', 'version: 2\nupdates: []\n');
    await write('.github/workflows/ci.yaml', 'on: push\njobs: {}\n');
    await write('.skaffold/skaffold.yaml', 'apiVersion: skaffold/v4beta6\nkind: Config\n');
    await write(
      'app/.chainsaw-test/chainsaw-test.yaml',
      'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n',
    );
    await write('app/.chainsaw-test/step.yaml', run('step'));
    await write(
      'policy/.kyverno-test/kyverno-test.yaml',
      'apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\n',
    );
    await write('policy/.kyverno-test/resource.yaml', run('resource'));
    await write('app/.ignored/x.yaml', run('x'));
    await write('app/.rendered/all.yaml', run('rendered'));
    await write('app/kustomization.yaml', 'resources: [.rendered/all.yaml]\n');
    await write('app/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n');
    await write('.git/HEAD.yaml', run('git'));
    const tree = await walkManifestTree(['.'], { cwd: dir, ignore: ['.ignored/'] });
    expect(tree.files.map((f) => f.display)).toEqual(['app/.rendered/all.yaml', 'app/cm.yaml']);
    const hidden = tree.unrendered.filter((u) => u.kind === 'hidden-directory');
    expect(hidden.map((u) => [u.path, u.message])).toEqual([
      [
        '.tekton',
        'a hidden directory, which directory walks skip, holding Kubernetes objects (push.yaml, release.yaml); name it to check it: cosi check .tekton',
      ],
    ]);
    expect(formatUnrenderedCounts(tree.unrendered)).toContain(
      '1 hidden directory holding manifests',
    );
    const named = await walkManifestTree(['.tekton'], { cwd: dir });
    expect(named.files.map((f) => f.display)).toEqual([
      '.tekton/push.yaml',
      '.tekton/release.yaml',
    ]);
    expect(named.unrendered).toEqual([]);
  });
});

describe("a Go package's test data", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-go-testdata-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = (file: string, text: string) => writeBelow(dir, file, text);

  it('sets testdata/ directories aside while walking, as Go’s tools do, and counts them', async () => {
    await write('config/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
    // Broken on purpose, and a copy of the real one: a unit test's inputs.
    await write('pkg/config/testdata/invalid.yaml', 'endpoint: [\n');
    await write(
      'pkg/config/testdata/cm.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
    );
    await write('pkg/agent/testdata/golden/out.yaml', 'kind: Pod\n');
    // Only a directory of that name: a file so named is read.
    await write('testdata.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n');

    const tree = await walkManifestTree(['.'], { cwd: dir });
    expect(tree.files.map((f) => f.display)).toEqual(['config/cm.yaml', 'testdata.yaml']);
    expect(tree.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['pkg/agent/testdata', 'go-test-data'],
      ['pkg/config/testdata', 'go-test-data'],
    ]);
    // Few, they are named: a file set aside by its name alone is seen.
    expect(formatUnrenderedCounts(tree.unrendered)).toBe(
      '2 Go test data directories (pkg/agent/testdata, pkg/config/testdata)',
    );

    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings).toEqual([]);
    expect(read.resources.map((r) => r.resource.metadata.id)).toEqual(['a', 'b']);
  });

  it('reads a testdata/ directory given by name, and what is below it', async () => {
    await write('pkg/config/testdata/invalid.yaml', 'endpoint: [\n');
    await write(
      'pkg/config/testdata/sub/cm.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
    );
    const read = await readManifests(['pkg/config/testdata'], { cwd: dir });
    expect(read.unrendered).toEqual([]);
    expect(read.resources.map((r) => r.resource.metadata.id)).toEqual(['a']);
    expect(read.findings.map((f) => [f.code, f.file])).toEqual([
      ['yaml-syntax', 'pkg/config/testdata/invalid.yaml'],
    ]);
  });

  it('says a directory of test data alone is empty, and what it set aside', async () => {
    await write('pkg/testdata/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => f.message)).toEqual([
      'no manifest files found; set aside: pkg/testdata (Go test data directory)',
    ]);
  });
});

describe('isJsonManifest on a text that is not strict JSON', () => {
  it('finds a key of a YAML flow mapping after blank lines, as before', () => {
    expect(isJsonManifest('{\n\n  apiVersion: v1,\n  kind: ConfigMap}')).toBe(true);
    expect(isJsonManifest("{\r\n,\r\n\r\n  'kind'  : x")).toBe(true);
    expect(isJsonManifest('[1, 2,\n  3,]')).toBe(false);
  });

  it('reads a file of blank lines in linear time', () => {
    // Spaces before a key read across lines were read again from each line's start: 120 KB of
    // "\t\n" took 27 s in cosi check.
    const started = performance.now();
    for (const blank of ['\t\n', ' \r', ',\t\n']) {
      expect(isJsonManifest(`${blank.repeat(60_000)}s`)).toBe(false);
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

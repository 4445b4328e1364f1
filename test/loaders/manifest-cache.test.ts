import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  loadManifests,
  type LoadManifestsOptions,
  type ManifestFile,
} from '../../src/loaders/load-manifests.js';
import { loadParsedManifests } from '../../src/loaders/load-parsed-manifests.js';
import { ManifestCache } from '../../src/loaders/manifest-cache.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';
import { prepareGraphCel } from '../../src/loaders/kro/graph-cel-loader.js';
import { SchemaCompiler } from '../../src/loaders/schema-compiler.js';
import type { JsonSchema } from '../../src/engine/resource/definition.js';

const DEFINITIONS = [
  'metadata: {type: rd, id: vms.example.org}',
  'spec:',
  '  type: VMs.example.org',
  '  schema: {type: object, required: [cpus], properties: {cpus: {type: integer, minimum: 1}}}',
  '',
].join('\n');
const vm = (id: string, cpus = 1): string =>
  `metadata: {type: vm, id: ${id}}\nspec: {cpus: ${cpus}}\n`;

const FILES: ManifestFile[] = [
  { path: 'a.yaml', text: vm('a') },
  { path: 'b.yaml', text: `${vm('b1')}---\n${vm('b2')}` },
  { path: 'defs.yaml', text: DEFINITIONS },
];

function edit(files: readonly ManifestFile[], file: string, text: string): ManifestFile[] {
  return files.map((f) => (f.path === file ? { path: f.path, text } : f));
}

function countingCache(options: LoadManifestsOptions = {}) {
  const parse = vi.fn(parseManifest);
  return { cache: new ManifestCache(loadParsedManifests, { ...options, parse }), parse };
}

describe('ManifestCache', () => {
  it('parses every file on the first load and gives what loadManifests gives', () => {
    const { cache, parse } = countingCache();
    const result = cache.load(FILES);
    expect(parse).toHaveBeenCalledTimes(3);
    expect(result.parsed).toEqual(['a.yaml', 'b.yaml', 'defs.yaml']);
    const { parsed: _parsed, resolved: _resolved, ...load } = result;
    expect(load).toEqual(loadManifests(FILES));
    expect(load.resources.map((r) => r.resource.metadata.id)).toEqual(['a', 'b1', 'b2']);
  });

  it('parses only the edited file on the next load, and the result equals a full load', () => {
    const { cache, parse } = countingCache();
    cache.load(FILES);
    parse.mockClear();
    const edited = edit(FILES, 'b.yaml', `${vm('b1', 4)}---\n${vm('b3')}`);
    const { parsed, resolved: _resolved, ...load } = cache.load(edited);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(parse.mock.calls[0]?.[1]).toBe('b.yaml');
    expect(parsed).toEqual(['b.yaml']);
    expect(load).toEqual(loadManifests(edited));
    expect(
      load.resources.map(
        (r) => `${r.resource.metadata.id}:${String((r.resource.spec as { cpus: number }).cpus)}`,
      ),
    ).toEqual(['a:1', 'b1:4', 'b3:1']);
  });

  it('parses nothing when no file changed', () => {
    const { cache, parse } = countingCache();
    cache.load(FILES);
    parse.mockClear();
    expect(cache.load(FILES.map((f) => ({ ...f }))).parsed).toEqual([]);
    expect(parse).not.toHaveBeenCalled();
  });

  it('places an excerpt at its origin as loadManifests does, and parses it again when it moves', () => {
    const { cache, parse } = countingCache();
    const invalid = (line: number): ManifestFile[] => [
      ...FILES.slice(0, 2),
      { path: 'scenario.yaml', text: vm('c', 0).replace(/^/gm, '   '), origin: { line, col: 1 } },
      ...FILES.slice(2),
    ];
    const first = cache.load(invalid(7));
    expect(first.findings.map((f) => [f.code, f.line, f.col])).toEqual([
      ['schema-violation', 8, 17],
    ]);
    expect(first.findings).toEqual(loadManifests(invalid(7)).findings);
    parse.mockClear();
    const moved = cache.load(invalid(9));
    expect(moved.parsed).toEqual(['scenario.yaml']);
    expect(moved.findings).toEqual(loadManifests(invalid(9)).findings);
    expect(moved.findings.map((f) => [f.line, f.col])).toEqual([[10, 17]]);
  });

  it('forgets a removed file and its resources, and parses it again when it comes back', () => {
    const { cache, parse } = countingCache();
    cache.load(FILES);
    const without = FILES.filter((f) => f.path !== 'a.yaml');
    const { parsed: _p, resolved: _r, ...load } = cache.load(without);
    expect(load).toEqual(loadManifests(without));
    parse.mockClear();
    expect(cache.load(FILES).parsed).toEqual(['a.yaml']);
  });

  it('takes the CRDs of a CustomResourceDefinitionList whose items name no type as definitions, as a full load does', () => {
    const files: ManifestFile[] = [
      {
        path: 'backup.yaml',
        text: 'apiVersion: example.org/v1\nkind: Backup\nmetadata: {name: b}\nspec: {keep: 0}\n',
      },
      {
        path: 'crds.yaml',
        text: [
          'apiVersion: apiextensions.k8s.io/v1',
          'kind: CustomResourceDefinitionList',
          'items:',
          '- metadata: {name: backups.example.org}',
          '  spec:',
          '    group: example.org',
          '    names: {plural: backups, kind: Backup}',
          '    scope: Namespaced',
          '    versions:',
          '    - name: v1',
          '      served: true',
          '      storage: true',
          '      schema:',
          '        openAPIV3Schema:',
          '          type: object',
          '          properties:',
          '            spec: {type: object, properties: {keep: {type: integer, minimum: 1}}}',
          '',
        ].join('\n'),
      },
    ];
    const { resolved: _r, parsed: _p, ...load } = countingCache().cache.load(files);
    expect(load).toEqual(loadManifests(files));
    expect(load.findings.map((f) => [f.code, f.file])).toEqual([
      ['schema-violation', 'backup.yaml'],
    ]);
  });

  it('re-resolves unchanged files when an edit elsewhere removes the type they use', () => {
    const { cache, parse } = countingCache();
    cache.load(FILES);
    parse.mockClear();
    const edited = edit(FILES, 'defs.yaml', '# no definitions any more\n');
    const { parsed, resolved: _resolved, ...load } = cache.load(edited);
    expect(parsed).toEqual(['defs.yaml']);
    expect(load).toEqual(loadManifests(edited));
    expect(load.resources).toEqual([]);
    expect(load.findings.map((f) => [f.code, f.file])).toEqual([
      ['unknown-type', 'a.yaml'],
      ['unknown-type', 'b.yaml'],
      ['unknown-type', 'b.yaml'],
    ]);
  });

  it('reports a duplicate across an edited and an unchanged file as a full load does', () => {
    const { cache } = countingCache();
    cache.load(FILES);
    const edited = edit(FILES, 'a.yaml', vm('b2'));
    const { parsed: _p, resolved: _r, ...load } = cache.load(edited);
    expect(load).toEqual(loadManifests(edited));
    expect(load.findings.map((f) => f.code)).toEqual(['duplicate-resource']);
  });

  it('reports one object written in two API versions in two files as a full load does, after an edit', () => {
    const { cache } = countingCache();
    const hpa = (apiVersion: string, name: string) =>
      `apiVersion: ${apiVersion}\nkind: HorizontalPodAutoscaler\nmetadata: {name: ${name}}\nspec:\n  scaleTargetRef: {kind: Deployment, name: web}\n  maxReplicas: 3\n`;
    const files: ManifestFile[] = [
      { path: 'v1.yaml', text: hpa('autoscaling/v1', 'web') },
      { path: 'v2.yaml', text: hpa('autoscaling/v2', 'api') },
    ];
    cache.load(files);
    const edited = edit(files, 'v2.yaml', hpa('autoscaling/v2', 'web'));
    const { parsed: _p, resolved: _r, ...load } = cache.load(edited);
    expect(load).toEqual(loadManifests(edited));
    expect(load.findings.map((f) => [f.code, f.file])).toEqual([['duplicate-resource', 'v2.yaml']]);
  });

  it('reports a duplicate that has errors of its own as a full load does, whatever else is there', () => {
    const { cache } = countingCache();
    // a.yaml's VM has an invalid spec, and the same id as b.yaml's first: refused, and a duplicate.
    const files = edit(FILES, 'a.yaml', vm('b1', 0));
    const { parsed: _p, resolved: _r, ...load } = cache.load(files);
    expect(load).toEqual(loadManifests(files));
    expect(load.findings.map((f) => [f.code, f.file])).toEqual([
      ['schema-violation', 'a.yaml'],
      ['duplicate-resource', 'b.yaml'],
    ]);
    // And on the load after an edit, which resolves the edited file alone.
    const edited = edit(files, 'b.yaml', `${vm('b1', 2)}---\n${vm('b2')}`);
    const { parsed: _p2, resolved: _r2, ...again } = cache.load(edited);
    expect(again).toEqual(loadManifests(edited));
    expect(again.findings.map((f) => f.code)).toContain('duplicate-resource');
  });

  it('resolves and validates only the edited file while the definitions do not change', () => {
    const { cache } = countingCache();
    const first = cache.load(FILES);
    expect(first.resolved).toEqual(['a.yaml', 'b.yaml']);
    const edited = edit(FILES, 'b.yaml', `${vm('b1', 4)}---\n${vm('b3')}`);
    const second = cache.load(edited);
    expect(second.resolved).toEqual(['b.yaml']);
    // The unchanged file's resources are the ones loaded before, not loaded again.
    expect(second.resources[0]).toBe(first.resources[0]);
    const broken = cache.load(edit(edited, 'a.yaml', vm('a', 0)));
    expect(broken.resolved).toEqual(['a.yaml']);
    expect(broken.findings.map((f) => [f.code, f.file])).toEqual([['schema-violation', 'a.yaml']]);
  });

  it('resolves every file again when a definition changes, as their types may have', () => {
    const { cache } = countingCache();
    cache.load(FILES);
    const loosened = edit(FILES, 'defs.yaml', DEFINITIONS.replace('minimum: 1', 'minimum: 0'));
    const result = cache.load(loosened);
    expect(result.resolved).toEqual(['a.yaml', 'b.yaml']);
    const zero = edit(loosened, 'a.yaml', vm('a', 0));
    const { parsed: _p, resolved, ...load } = cache.load(zero);
    expect(resolved).toEqual(['a.yaml']);
    expect(load).toEqual(loadManifests(zero));
    expect(load.findings).toEqual([]);
  });

  it('reports a given definition with an invalid schema once, as a full load does', () => {
    const definitions = loadManifests([{ path: 'defs.yaml', text: DEFINITIONS }]).definitions.map(
      (d) => ({ ...d, schema: { type: 'no-such-type' } }),
    );
    const options = { definitions, definitionsSource: 'cosi.config.ts' };
    const files = FILES.filter((f) => f.path !== 'defs.yaml');
    const { cache } = countingCache(options);
    const { parsed: _p, resolved: _r, ...load } = cache.load(files);
    expect(load).toEqual(loadManifests(files, options));
    expect(load.findings.filter((f) => f.code === 'invalid-schema')).toHaveLength(1);
  });
});

describe('ManifestCache and the kinds other definitions make', () => {
  // A Crossplane XRD and a Gatekeeper ConstraintTemplate define kinds as the CRDs made of them
  // do: their files hold definitions, resolved before the files that use them, whatever their
  // order (a claim.yaml sorts before xrd.yaml). Before, the cache took them for files of
  // resources only, and their kinds were unknown there, but not to a full load.
  const XRD = readFileSync(
    new URL('../../fixtures/crossplane/postgresql-xrd.yaml', import.meta.url),
    'utf8',
  );
  const TEMPLATE = readFileSync(
    new URL(
      '../../fixtures/real-crds/gatekeeper/library/library/general/allowedrepos/template.yaml',
      import.meta.url,
    ),
    'utf8',
  );
  const files: ManifestFile[] = [
    {
      path: 'claim.yaml',
      text: 'apiVersion: database.example.org/v1alpha1\nkind: PostgreSQLInstance\nmetadata: { name: db, namespace: team-a }\nspec:\n  parameters: { storageGB: 0 }\n',
    },
    {
      path: 'constraint.yaml',
      text: 'apiVersion: constraints.gatekeeper.sh/v1beta1\nkind: K8sAllowedRepos\nmetadata: { name: repos }\nspec:\n  parameters: { repoz: [a] }\n',
    },
    { path: 'template.yaml', text: TEMPLATE },
    { path: 'xrd.yaml', text: XRD },
  ];

  it('resolves the files that use them as a full load does', () => {
    const { cache } = countingCache();
    const { parsed: _parsed, resolved: _resolved, ...load } = cache.load(files);
    expect(load).toEqual(loadManifests(files));
    expect(load.findings.map((f) => [f.file, f.code, f.pointer])).toEqual([
      ['claim.yaml', 'schema-violation', '/spec/parameters/storageGB'],
      ['constraint.yaml', 'schema-violation', '/spec/parameters/repoz'],
      ['template.yaml', 'unknown-type', '/kind'],
      ['xrd.yaml', 'unknown-type', '/kind'],
    ]);
  });
});

describe('ManifestCache changes', () => {
  const ids = (changes: ReadonlyMap<string, readonly { key: string }[]> | undefined) =>
    changes && Object.fromEntries([...changes].map(([file, rs]) => [file, rs.map((r) => r.key)]));

  it('has none on a first load: everything is new', () => {
    expect(new ManifestCache(loadParsedManifests).load(FILES).changes).toBeUndefined();
  });

  it('names only the edited file, with its resources now', () => {
    const cache = new ManifestCache(loadParsedManifests);
    cache.load(FILES);
    const edited = edit(FILES, 'b.yaml', `${vm('b1', 4)}---\n${vm('b3')}`);
    const result = cache.load(edited);
    expect([...(result.changes?.keys() ?? [])]).toEqual(['b.yaml']);
    expect(result.changes?.get('b.yaml')).toEqual(result.resources.slice(1));
    expect(cache.load(edited).changes?.size).toBe(0);
  });

  it('names a removed file with no resources, and every file when a definition changes', () => {
    const cache = new ManifestCache(loadParsedManifests);
    cache.load(FILES);
    const without = FILES.filter((f) => f.path !== 'a.yaml');
    expect(ids(cache.load(without).changes)).toEqual({ 'a.yaml': [] });
    const loosened = edit(without, 'defs.yaml', DEFINITIONS.replace('minimum: 1', 'minimum: 0'));
    expect([...(cache.load(loosened).changes?.keys() ?? [])]).toEqual(['b.yaml', 'defs.yaml']);
  });

  it('has none after a load that took the full path, which the next one cannot build on', () => {
    const cache = new ManifestCache(loadParsedManifests);
    cache.load(FILES);
    const duplicate = edit(FILES, 'a.yaml', vm('b2'));
    expect(cache.load(duplicate).changes).toBeUndefined();
    expect(cache.load(FILES).changes).toBeUndefined();
    expect(cache.load(FILES).changes?.size).toBe(0);
  });
});

describe('ManifestCache loadChanged', () => {
  const whole = ({ parsed: _p, resolved: _r, ...load }: ReturnType<ManifestCache['load']>) => load;

  it('touches only the files named, and equals a whole load', () => {
    const { cache, parse } = countingCache();
    cache.load(FILES);
    parse.mockClear();
    const edited = edit(FILES, 'b.yaml', `${vm('b1', 4)}---\n${vm('b3')}`);
    const result = cache.loadChanged(edited, ['b.yaml']);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(result.parsed).toEqual(['b.yaml']);
    expect(result.resolved).toEqual(['b.yaml']);
    expect([...(result.changes?.keys() ?? [])]).toEqual(['b.yaml']);
    expect(whole(result)).toEqual(loadManifests(edited));
    // A named file whose text did not change costs nothing.
    expect(cache.loadChanged(edited, ['a.yaml']).parsed).toEqual([]);
  });

  it('takes the whole load when a definition file changes, or the files are not the last ones', () => {
    const { cache, parse } = countingCache();
    cache.load(FILES);
    parse.mockClear();
    const loosened = edit(FILES, 'defs.yaml', DEFINITIONS.replace('minimum: 1', 'minimum: 0'));
    const result = cache.loadChanged(loosened, ['defs.yaml']);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(result.parsed).toEqual(['defs.yaml']);
    expect(result.resolved).toEqual(['a.yaml', 'b.yaml']);
    expect(whole(result)).toEqual(loadManifests(loosened));
    const fewer = loosened.slice(1);
    expect(whole(cache.loadChanged(fewer, []))).toEqual(loadManifests(fewer));
  });

  it('reports a duplicate as a whole load does', () => {
    const cache = new ManifestCache(loadParsedManifests);
    cache.load(FILES);
    const duplicate = edit(FILES, 'a.yaml', vm('b2'));
    const result = cache.loadChanged(duplicate, ['a.yaml']);
    expect(whole(result)).toEqual(loadManifests(duplicate));
    expect(result.changes).toBeUndefined();
    const fixed = cache.loadChanged(FILES, ['a.yaml']);
    expect(whole(fixed)).toEqual(loadManifests(FILES));
  });
});

describe('ManifestCache and RGDs', () => {
  const RGD = [
    'apiVersion: kro.run/v1alpha1',
    'kind: ResourceGraphDefinition',
    'metadata: {name: once.kro.run}',
    'spec:',
    '  schema:',
    '    apiVersion: v1alpha1',
    '    kind: Once',
    '    spec: {compiledOnce: string}',
    '  resources:',
    '    - id: config',
    '      template:',
    '        apiVersion: v1',
    '        kind: ConfigMap',
    '        metadata: {name: "${schema.spec.compiledOnce}"}',
    '',
  ].join('\n');
  const INSTANCE =
    'apiVersion: kro.run/v1alpha1\nkind: Once\nmetadata: {name: a}\nspec: {compiledOnce: a}\n';

  it('compiles an RGD once per load: telling its file holds a definition compiles nothing', async () => {
    await prepareGraphCel([RGD]);
    /** The RGD's generated schemas the compiler saw: one per time its type was read. */
    const rgdSchemas = new Set<object>();
    class CountingCompiler extends SchemaCompiler {
      override compile(schema: JsonSchema) {
        const spec = (schema.properties as Record<string, JsonSchema> | undefined)?.spec;
        if ((spec?.properties as Record<string, unknown> | undefined)?.compiledOnce) {
          rgdSchemas.add(schema);
        }
        return super.compile(schema);
      }
    }
    const cache = new ManifestCache(loadParsedManifests, {
      schemaCompiler: new CountingCompiler(),
    });
    const files = [
      { path: 'rgd.yaml', text: RGD },
      { path: 'a.yaml', text: INSTANCE },
    ];
    const result = cache.load(files);
    expect(result.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(result.resources.map((r) => r.resource.metadata.id)).toEqual(['a']);
    expect(rgdSchemas.size).toBe(1);
    cache.load(edit(files, 'a.yaml', INSTANCE.replace('{compiledOnce: a}', '{compiledOnce: b}')));
    expect(rgdSchemas.size).toBe(1);
  });
});

import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDefinition, pointerKey } from '../../src/index.js';
import { resourceDefinitionDefinition } from '../../src/engine/resource/definition.js';
import { type Finding, type FindingCode } from '../../src/loaders/finding.js';
import { loadManifests, type ManifestFile } from '../../src/loaders/load-manifests.js';
import { createSchemaCompiler } from '../../src/loaders/schema-compiler.js';

type Where = [FindingCode, string, number, number, string];
const where = (f: Finding): Where => [f.code, f.file, f.line, f.col, f.pointer];

const fixture = (name: string) =>
  readFile(new URL(`../../fixtures/minimal/${name}`, import.meta.url), 'utf8');

const VM_DEFINITION = `metadata:
  type: rd
spec:
  type: VMs.example.org
  schema:
    type: object
    required: [cpus]
    properties:
      cpus: { type: integer }
`;

const vm = (id: string, extra = '') =>
  `metadata:\n  type: vm\n  id: ${id}\n${extra}spec:\n  cpus: 2\n`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('loadManifests', () => {
  it('loads the definitions and the resources of a tree, as new drafts with no owner', async () => {
    const files = [
      { path: 'minimal/definitions.yaml', text: await fixture('definitions.yaml') },
      { path: 'minimal/vms.yaml', text: await fixture('vms.yaml') },
    ];
    const { definitions, resources, findings } = loadManifests(files);
    expect(findings).toEqual([]);
    expect(definitions.map((d) => [d.type, d.displayType, d.aliases])).toEqual([
      ['VMs.example.org', 'VM', ['machine', 'vm', 'vms']],
    ]);
    expect(resources.map((r) => r.key)).toEqual([
      pointerKey({ namespace: 'default', type: 'VMs.example.org', id: 'web-1' }),
      pointerKey({ namespace: 'staging', type: 'VMs.example.org', id: 'db-1' }),
    ]);
    expect(resources).toMatchObject([
      {
        resource: {
          metadata: {
            namespace: 'default',
            type: 'VMs.example.org',
            id: 'web-1',
            version: 0,
            owner: '',
            phase: 'running',
            labels: { tier: 'web' },
            annotations: {},
          },
          spec: { cpus: 2, image: 'debian' },
        },
        definition: definitions[0],
        source: { file: 'minimal/vms.yaml', line: 1, col: 1, document: 0 },
      },
      {
        resource: {
          metadata: { namespace: 'staging', id: 'db-1', annotations: { owner: 'team-data' } },
          spec: { cpus: 4, image: 'postgres' },
        },
        definition: definitions[0],
        source: { file: 'minimal/vms.yaml', line: 10, col: 1, document: 1 },
      },
    ]);
  });

  it('reads definitions from every file first, so a type may be used before it is defined', () => {
    const { resources, findings } = loadManifests([
      { path: 'a.yaml', text: vm('web-1') },
      { path: 'z.yaml', text: VM_DEFINITION },
    ]);
    expect(findings).toEqual([]);
    expect(resources.map((r) => r.resource.metadata.id)).toEqual(['web-1']);
  });

  it('says of a duplicate in another directory that each application may be checked on its own', () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n';
    const apart = loadManifests([
      { path: 'guestbook/cm.yaml', text: cm },
      { path: 'kustomize-guestbook/cm.yaml', text: cm },
    ]).findings;
    expect(apart.map((f) => [f.code, f.file, f.message])).toEqual([
      [
        'duplicate-resource',
        'kustomize-guestbook/cm.yaml',
        'ConfigMaps.core(default/settings) is already defined at guestbook/cm.yaml:4:9 (one run is one world: if guestbook/ and kustomize-guestbook/ hold separate applications, check each on its own: cosi check --each guestbook kustomize-guestbook)',
      ],
    ]);
    const together = loadManifests([
      { path: 'app/a.yaml', text: cm },
      { path: 'app/b.yaml', text: cm },
      { path: '<stdin>', text: cm },
    ]).findings;
    expect(together.map((f) => f.message)).toEqual([
      'ConfigMaps.core(default/settings) is already defined at app/a.yaml:4:9',
      'ConfigMaps.core(default/settings) is already defined at app/a.yaml:4:9',
    ]);
    // One directory inside the other (Tekton's examples/ and examples/no-ci/): the files, whose
    // --each the directories' would not be.
    const nested = loadManifests([
      { path: 'examples/no-ci/cm.yaml', text: cm },
      { path: 'examples/cm.yaml', text: cm },
      { path: 'top.yaml', text: cm },
    ]).findings;
    expect(nested.map((f) => f.message)).toEqual([
      'ConfigMaps.core(default/settings) is already defined at examples/no-ci/cm.yaml:4:9 (one run is one world: if examples/no-ci/cm.yaml and examples/cm.yaml belong to separate applications, check each on its own: cosi check --each examples/no-ci/cm.yaml examples/cm.yaml)',
      'ConfigMaps.core(default/settings) is already defined at examples/no-ci/cm.yaml:4:9 (one run is one world: if examples/no-ci/cm.yaml and top.yaml belong to separate applications, check each on its own: cosi check --each examples/no-ci/cm.yaml top.yaml)',
    ]);
  });

  it('takes definition documents by any name of the definition type', () => {
    const names = [
      'rd',
      'RD',
      'rds',
      'resourcedefinition',
      'api-resources',
      'ResourceDefinitions.meta.cosi.dev',
    ];
    const text = names
      .map((name, i) => `metadata:\n  type: ${name}\nspec:\n  type: Things${i}s.example.org\n`)
      .join('---\n');
    const { definitions, resources, findings } = loadManifests([
      { path: 'd.yaml', text },
      { path: 'r.yaml', text: 'metadata: {type: things0s, id: t}\n' },
    ]);
    expect(findings).toEqual([]);
    expect(definitions).toHaveLength(names.length);
    expect(resources).toHaveLength(1);
  });

  it('resolves a type by its full name or any alias, in any case, and stores the full name', () => {
    const names = ['VMs.example.org', 'vms.example.org', 'VM', 'vms', 'vms.example'];
    const text = names.map(
      (name, i) => `metadata: {type: ${name}, id: vm-${i}}\nspec: {cpus: 1}\n`,
    );
    const { resources, findings } = loadManifests([
      { path: 'd.yaml', text: VM_DEFINITION },
      { path: 'r.yaml', text: text.join('---\n') },
    ]);
    expect(findings).toEqual([]);
    expect(resources.map((r) => r.resource.metadata.type)).toEqual(
      names.map(() => 'VMs.example.org'),
    );
  });

  it('puts a resource without a namespace in its type’s default namespace', () => {
    const definition = `metadata: {type: rd}\nspec: {type: Disks.example.org, defaultNamespace: storage}\n`;
    const { resources } = loadManifests([
      { path: 'd.yaml', text: definition },
      {
        path: 'r.yaml',
        text: 'metadata: {type: disk, id: d1}\n---\nmetadata: {type: disk, id: d2, namespace: other}\n',
      },
    ]);
    expect(resources.map((r) => r.resource.metadata.namespace)).toEqual(['storage', 'other']);
  });

  it('gives a resource without spec an empty one, and checks it against the schema', () => {
    const { findings } = loadManifests([
      { path: 'd.yaml', text: VM_DEFINITION },
      { path: 'r.yaml', text: 'metadata:\n  type: vm\n  id: a\n' },
    ]);
    expect(findings.map(where)).toEqual([['schema-violation', 'r.yaml', 1, 1, '/spec']]);
  });

  it('reports every schema violation of a spec, each at its node', () => {
    const text = 'metadata: {type: vm, id: a}\nspec:\n  cpus: two\n  extra: 1\n';
    const schema = `metadata: {type: rd}
spec:
  type: VMs.example.org
  schema:
    type: object
    additionalProperties: false
    required: [cpus, image]
    properties:
      cpus: { type: integer }
      image: { type: string }
`;
    const { resources, findings } = loadManifests([
      { path: 'd.yaml', text: schema },
      { path: 'r.yaml', text },
    ]);
    expect(resources).toEqual([]);
    expect(findings.map((f) => [...where(f), f.rule])).toEqual([
      ['schema-violation', 'r.yaml', 3, 3, '/spec', 'required'],
      ['schema-violation', 'r.yaml', 3, 9, '/spec/cpus', 'type'],
      ['schema-violation', 'r.yaml', 4, 3, '/spec/extra', 'additionalProperties'],
    ]);
  });

  it('keeps a resource that has only warnings, and drops one with an error', () => {
    const { resources, findings } = loadManifests([
      { path: 'd.yaml', text: VM_DEFINITION },
      {
        path: 'r.yaml',
        text: `${vm('ok', '  labels: {public: yes}\n')}---\n${vm('bad', '  labels: {n: 1}\n')}`,
      },
    ]);
    expect(findings.map((f) => f.code)).toEqual(['yaml11-boolean', 'wrong-type']);
    expect(resources.map((r) => r.resource.metadata.id)).toEqual(['ok']);
  });

  it('does not register a definition with findings', () => {
    const text = 'metadata: {type: rd, colour: red}\nspec: {type: VMs.example.org}\n';
    const { definitions, findings } = loadManifests([
      { path: 'd.yaml', text },
      { path: 'r.yaml', text: vm('a') },
    ]);
    expect(definitions).toEqual([]);
    expect(findings.map(where)).toEqual([
      ['unknown-key', 'd.yaml', 1, 22, '/metadata/colour'],
      ['unknown-type', 'r.yaml', 2, 9, '/metadata/type'],
    ]);
    expect(findings[1]?.related).toMatchObject({ file: 'd.yaml', line: 2, col: 14 });
  });

  it('collects the findings of every file in one run, sorted by file and position', () => {
    const { findings } = loadManifests([
      { path: 'a.yaml', text: 'metadata: {type: vm, id: " "}\n' },
      { path: 'b.yaml', text: 'metadata: {type: nope, id: x}\n---\n[1]\n' },
      { path: 'c.yaml', text: 'a: [1\n' },
      { path: 'd.yaml', text: VM_DEFINITION },
    ]);
    expect(findings.map((f) => [f.file, f.code])).toEqual([
      // No spec: the schema's `required` fails at the document itself, column 1.
      ['a.yaml', 'schema-violation'],
      ['a.yaml', 'invalid-id'],
      ['b.yaml', 'unknown-type'],
      ['b.yaml', 'not-a-mapping'],
      ['c.yaml', 'yaml-syntax'],
    ]);
  });

  it("says once that a program's own YAML is no manifest, not an unknown key each", () => {
    const settings = Array.from({ length: 90 }, (_, i) => `setting_${i}: ${i}\n`).join('');
    const { findings } = loadManifests([
      { path: 'cassandra.yaml', text: `cluster_name: Test\nnum_tokens: 256\n${settings}` },
      // A manifest's key misspelt is still said as such.
      { path: 'typo.yaml', text: 'metdata: {type: vm, id: a}\n' },
    ]);
    expect(findings.map((f) => [f.file, f.code, f.pointer])).toEqual([
      ['cassandra.yaml', 'missing-field', '/metadata'],
      ['typo.yaml', 'unknown-key', '/metdata'],
      ['typo.yaml', 'missing-field', '/metadata'],
    ]);
    expect(findings[0]?.message).toBe(
      'not a manifest: its keys ("cluster_name", "num_tokens", "setting_0" and 89 more) are none of a Kubernetes object\'s (apiVersion, kind, metadata) nor of a cosi document\'s (metadata, spec); if the file holds no manifest, leave it out with --ignore or .cosiignore',
    );
  });

  it('says that a key after an empty spec: or metadata: is probably meant to be indented under it', () => {
    const { findings } = loadManifests([
      { path: 'defs.yaml', text: VM_DEFINITION },
      // The spec's fields written at the document's own level.
      { path: 'spec.yaml', text: 'metadata:\n  type: vm\n  id: a\nspec:\ncpus: 2\n' },
      // The metadata's fields written at the document's own level.
      { path: 'metadata.yaml', text: 'metadata:\ntype: vm\nid: b\nspec:\n  cpus: 2\n' },
      // The spec indented into the metadata.
      { path: 'deep.yaml', text: 'metadata:\n  type: vm\n  id: c\n  spec:\n    cpus: 2\n' },
      // An unknown key with no empty parent before it: no guess.
      { path: 'other.yaml', text: 'extra: 1\nmetadata:\n  type: vm\n  id: d\nspec:\n  cpus: 2\n' },
    ]);
    const messages = (file: string) =>
      findings.filter((f) => f.file === file).map((f) => `${f.line}:${f.col} ${f.message}`);
    expect(messages('spec.yaml')).toContain(
      '5:1 unknown key "cpus" in a manifest document (expected metadata, spec); spec above it is empty: is it meant to be indented under spec?',
    );
    expect(messages('metadata.yaml')).toEqual([
      '1:10 metadata must be a mapping, not null: type, id are beside it, not under it (indent them under metadata)',
      '2:1 unknown key "type" in a manifest document (expected metadata, spec); metadata above it is empty: is it meant to be indented under metadata?',
      '3:1 unknown key "id" in a manifest document (expected metadata, spec); metadata above it is empty: is it meant to be indented under metadata?',
    ]);
    expect(messages('deep.yaml')).toContain(
      '4:3 unknown key "spec" in metadata (expected namespace, type, id, labels, annotations); is it indented too far? spec belongs at the top level, beside metadata',
    );
    expect(messages('other.yaml')).toEqual([
      '1:1 unknown key "extra" in a manifest document (expected metadata, spec)',
    ]);
  });

  describe('definitions given in options', () => {
    const extra = createDefinition({
      type: 'Disks.example.org',
      schema: { type: 'object', required: ['size'] },
    });

    it('resolve types, and are not returned as the manifests’ definitions', () => {
      const { definitions, resources, findings } = loadManifests(
        [{ path: 'r.yaml', text: 'metadata: {type: disk, id: d}\nspec: {size: 1}\n' }],
        { definitions: [extra] },
      );
      expect(findings).toEqual([]);
      expect(definitions).toEqual([]);
      expect(resources[0]?.definition).toBe(extra);
    });

    it('are in the returned registry, with cosi’s definition type and the manifests’ ones', () => {
      const { definitions, registry } = loadManifests(
        [{ path: 'd.yaml', text: `${VM_DEFINITION}---\n${vm('a')}` }],
        { definitions: [extra] },
      );
      expect(registry.all()).toEqual([extra, resourceDefinitionDefinition, definitions[0]]);
      expect(registry.resolve('rd')).toBe(resourceDefinitionDefinition);
      expect(registry.resolve('disk')).toBe(extra);
      expect(registry.resolve('vm')).toBe(definitions[0]);
    });

    it('may not be defined again by a manifest', () => {
      const { findings } = loadManifests(
        [{ path: 'd.yaml', text: 'metadata: {type: rd}\nspec: {type: Disks.example.org}\n' }],
        { definitions: [extra], definitionsSource: 'cosi.config.ts' },
      );
      expect(findings.map(where)).toEqual([
        ['duplicate-definition', 'd.yaml', 2, 14, '/spec/type'],
      ]);
      expect(findings.find((f) => f.code === 'duplicate-definition')?.message).toContain(
        'cosi.config.ts',
      );
    });

    it('with an invalid schema give one finding, at their source', () => {
      const broken = createDefinition({ type: 'Disks.example.org', schema: { type: 'objekt' } });
      const { findings } = loadManifests(
        [
          {
            path: 'r.yaml',
            text: 'metadata: {type: disk, id: a}\n---\nmetadata: {type: disk, id: b}\n',
          },
        ],
        { definitions: [broken], definitionsSource: 'cosi.config.ts' },
      );
      expect(findings.map(where)).toEqual([['invalid-schema', 'cosi.config.ts', 0, 0, '']]);
    });
  });

  describe('schemas', () => {
    const withSchema = (schema: string) => `metadata: {type: rd}
spec:
  type: VMs.example.org
  schema:
${schema
  .split('\n')
  .map((line) => `    ${line}`)
  .join('\n')}
`;

    it('are compiled once each, however many resources use them', () => {
      const compile = vi.spyOn(Ajv.prototype, 'compile');
      const compiler = createSchemaCompiler();
      const extra = createDefinition({ type: 'Disks.example.org', schema: { type: 'object' } });
      const files: ManifestFile[] = [
        { path: 'd.yaml', text: VM_DEFINITION },
        { path: 'r.yaml', text: Array.from({ length: 50 }, (_, i) => vm(`vm-${i}`)).join('---\n') },
        {
          path: 's.yaml',
          text: 'metadata: {type: disk, id: a}\n---\nmetadata: {type: disk, id: b}\n',
        },
      ];
      const first = loadManifests(files, { definitions: [extra], schemaCompiler: compiler });
      expect(first.resources).toHaveLength(52);
      // The definition spec's own schema, the VMs schema, the Disks schema.
      expect(compile).toHaveBeenCalledTimes(3);
      loadManifests(files, { definitions: [extra], schemaCompiler: compiler });
      // The VMs schema, parsed again from YAML, is a new object written the same: not compiled.
      expect(compile).toHaveBeenCalledTimes(3);
    });

    it('may carry x- extension keywords', () => {
      const text = withSchema('type: object\nx-kubernetes-preserve-unknown-fields: true');
      const { findings } = loadManifests([
        { path: 'd.yaml', text },
        { path: 'r.yaml', text: vm('a') },
      ]);
      expect(findings).toEqual([]);
    });

    it('with an unknown keyword are invalid (a typo must not accept everything)', () => {
      const { findings } = loadManifests([
        { path: 'd.yaml', text: withSchema('type: object\nrequried: [cpus]') },
        { path: 'r.yaml', text: vm('a') },
      ]);
      expect(findings.map((f) => [...where(f), f.rule])).toEqual([
        // At the typo itself.
        ['invalid-schema', 'd.yaml', 6, 5, '/spec/schema/requried', 'strict'],
        ['unknown-type', 'r.yaml', 2, 9, '/metadata/type', undefined],
      ]);
    });

    it('with a reference that cannot be resolved are invalid', () => {
      const { findings } = loadManifests([
        { path: 'd.yaml', text: withSchema("$ref: 'https://example.org/schema.json'") },
        { path: 'r.yaml', text: vm('a') },
      ]);
      expect(findings.map((f) => f.code)).toEqual(['invalid-schema', 'unknown-type']);
    });

    it('with the same $id in two definitions both compile', () => {
      const a = withSchema('$id: https://example.org/s\ntype: object');
      const b = a.replace('VMs.example.org', 'Disks.example.org');
      const { definitions, findings } = loadManifests([
        { path: 'a.yaml', text: a },
        { path: 'b.yaml', text: b },
        { path: 'r.yaml', text: vm('x') },
      ]);
      expect(findings).toEqual([]);
      expect(definitions).toHaveLength(2);
    });
  });

  describe('empty input', () => {
    it('is a finding when there are no files', () => {
      expect(loadManifests([]).findings.map(where)).toEqual([['empty-input', '', 0, 0, '']]);
    });

    it('is a finding when the files hold nothing but empty documents', () => {
      const { findings } = loadManifests([{ path: 'a.yaml', text: '---\n# nothing\n---\n' }]);
      expect(findings.map(where)).toEqual([['empty-input', '', 0, 0, '']]);
    });

    it('is not a finding when the files hold only definitions: they are what is checked', () => {
      const { findings } = loadManifests([{ path: 'd.yaml', text: VM_DEFINITION }]);
      expect(findings.map((f) => f.code)).toEqual([]);
    });

    it('is not a finding when a document is there but invalid: its own finding says why', () => {
      const { findings } = loadManifests([{ path: 'a.yaml', text: '- 1\n' }]);
      expect(findings.map((f) => f.code)).toEqual(['not-a-mapping']);
      // A list at the top is a program's own file (Prometheus' additional scrape configs).
      expect(findings[0]?.message).toMatch(
        /^not a manifest: .*, not a sequence; if the file holds no manifest, leave it out with --ignore or \.cosiignore$/,
      );
    });
  });

  it('refuses label keys that are empty or hold whitespace or control characters, at the key', () => {
    const { findings, resources } = loadManifests([
      { path: 'd.yaml', text: VM_DEFINITION },
      {
        path: 'r.yaml',
        text: vm('a', '  labels:\n    "": x\n    "a\\tb": x\n    "c\\nd": x\n    ok: x\n'),
      },
    ]);
    expect(resources).toEqual([]);
    expect(findings.map((f) => [...where(f), f.rule])).toEqual([
      ['wrong-type', 'r.yaml', 5, 5, '/metadata/labels/', 'label-key'],
      ['wrong-type', 'r.yaml', 6, 5, '/metadata/labels/a\tb', 'label-key'],
      ['wrong-type', 'r.yaml', 7, 5, '/metadata/labels/c\nd', 'label-key'],
    ]);
  });

  it('shortens long values in messages', () => {
    const long = 'x'.repeat(5000);
    const { findings } = loadManifests([
      { path: 'd.yaml', text: VM_DEFINITION },
      { path: 'r.yaml', text: `metadata:\n  type: vm\n  id: "${long} "\nspec: {cpus: 2}\n` },
    ]);
    expect(findings[0]?.code).toBe('invalid-id');
    expect(findings[0]?.message.length).toBeLessThan(200);
    expect(findings[0]?.message).toContain('5001 characters');
  });

  it('never throws, whatever the documents hold', () => {
    const scalar = fc.constantFrom(
      'vm',
      'rd',
      'VMs.example.org',
      'x',
      '1',
      'yes',
      '~',
      '""',
      '[]',
      '{}',
      '*a',
      '&a b',
    );
    const key = fc.constantFrom(
      'metadata',
      'spec',
      'type',
      'id',
      'namespace',
      'labels',
      'schema',
      '__proto__',
      'cpus',
    );
    const node: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        scalar,
        fc
          .array(fc.tuple(key, tie('node')), { maxLength: 4 })
          .map((pairs) => `{${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
        fc.array(tie('node'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
      ),
    })).node;
    fc.assert(
      fc.property(fc.array(node, { maxLength: 4 }), (docs) => {
        const result = loadManifests([
          { path: 'd.yaml', text: VM_DEFINITION },
          { path: 'r.yaml', text: docs.join('\n---\n') },
        ]);
        for (const r of result.resources) expect(r.resource.metadata.owner).toBe('');
      }),
      { numRuns: 300 },
    );
  });
});

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { camelPlural } from '../../../src/loaders/kubernetes/crd-definitions.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { evaluateTemplate } from '../../../src/loaders/kubernetes/jsonpath.js';

const fixture = (name: string) =>
  readFile(new URL(`../../../fixtures/kubernetes/${name}`, import.meta.url), 'utf8');

const where = (f: Finding) => [f.code, f.rule, f.line, f.col, f.pointer];

/** The findings of a load, without the `empty-input` of a tree that holds only definitions. */
const load = (...texts: string[]) => {
  const result = loadManifests(texts.map((text, i) => ({ path: `m${i}.yaml`, text })));
  return { ...result, findings: result.findings.filter((f) => f.code !== 'empty-input') };
};

/** A CRD of kind Backup in example.org, with the given versions (YAML, indented by 4). */
const backupCrd = (versions: string, extra = '') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: backups.example.org
spec:
  group: example.org
  names: { plural: backups, singular: backup, kind: Backup, shortNames: [bk] }
  scope: Namespaced
${extra}  versions:
${versions}`;

const VERSION_V1 = `    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-validations:
            - rule: self.spec.keep > 0
              message: keep at least one
          properties:
            spec:
              type: object
              properties:
                keep: { type: integer }
`;

describe('CustomResourceDefinitions as definitions', () => {
  it('define <Plural>.<group> for the storage version, with the aliases of its names', async () => {
    const { definitions, findings } = loadManifests([
      { path: 'crds.yaml', text: await fixture('crds.yaml') },
    ]);
    expect(findings.filter((f) => f.code !== 'empty-input')).toEqual([]);
    const [v1, v1alpha2] = definitions;
    expect(v1).toMatchObject({
      type: 'Certificates.cert-manager.io',
      id: 'certificates.cert-manager.io',
      displayType: 'Certificate',
      kubernetes: { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', namespaced: true },
    });
    expect(v1?.aliases).toEqual(['cert', 'certs', 'certificate']);
    expect(v1?.allAliases).toContain('certificates');
    // Printer columns on the spec's fields become print columns; .metadata ones are left out.
    expect(v1?.printColumns).toEqual([
      { name: 'Secret', jsonPath: '{.spec.secretName}' },
      { name: 'Issuer', jsonPath: '{.spec.issuerRef.name}' },
    ]);
    // Another served version: fully qualified, and without aliases that would be ambiguous.
    expect(v1alpha2).toMatchObject({
      type: 'Certificates.v1alpha2.cert-manager.io',
      aliases: [],
      allAliases: [],
      kubernetes: { apiVersion: 'cert-manager.io/v1alpha2' },
    });
  });

  it('keep the openAPIV3Schema as it is, CEL rules included, as the definition schema', () => {
    const { definitions } = loadManifests([{ path: 'crd.yaml', text: backupCrd(VERSION_V1) }]);
    expect(definitions[0]?.schema).toEqual({
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.spec.keep > 0', message: 'keep at least one' }],
      properties: { spec: { type: 'object', properties: { keep: { type: 'integer' } } } },
    });
  });

  it("take a group with one-character labels, as Crossplane's namespaced managed resources have", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: vpcs.ec2.aws.m.upbound.io }
spec:
  group: ec2.aws.m.upbound.io
  names: { kind: VPC, plural: vpcs, singular: vpc }
  scope: Namespaced
  versions:
    - name: v1beta1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object, properties: { spec: { type: object } } } }
`;
    const { findings, resources } = load(
      crd,
      'apiVersion: ec2.aws.m.upbound.io/v1beta1\nkind: VPC\nmetadata: { name: main }\nspec: {}\n',
    );
    expect(findings).toEqual([]);
    expect(resources.map((r) => r.resource.metadata.type)).toEqual(['VPCs.ec2.aws.m.upbound.io']);
  });

  it('name a type in CamelCase, cased as the kind', () => {
    expect(camelPlural('certificates', 'Certificate')).toBe('Certificates');
    expect(camelPlural('networkpolicies', 'NetworkPolicy')).toBe('NetworkPolicies');
    expect(camelPlural('people', 'Person')).toBe('People');
    // The API server takes a kind in lower case: its type is still CamelCase.
    expect(camelPlural('foos', 'foo')).toBe('Foos');
    expect(camelPlural('foos', 'fooBar')).toBe('Foos');
    const lower = backupCrd(VERSION_V1).replace('kind: Backup,', 'kind: backup,');
    const { findings, resources } = load(
      lower,
      'apiVersion: example.org/v1\nkind: backup\nmetadata: { name: a, namespace: ns }\nspec: { keep: 1 }\n',
    );
    expect(findings).toEqual([]);
    expect(resources.map((r) => r.resource.metadata.type)).toEqual(['Backups.example.org']);
  });

  it('take a plural that is not an English plural, as the API server does (Tetragon: podinfo, tracingpoliciesnamespaced)', () => {
    const crd = (plural: string, kind: string) =>
      backupCrd(VERSION_V1)
        .replace('backups.example.org', `${plural}.example.org`)
        .replace(
          'plural: backups, singular: backup, kind: Backup, shortNames: [bk]',
          `plural: ${plural}, kind: ${kind}`,
        );
    const { definitions, findings, resources } = load(
      crd('podinfo', 'PodInfo'),
      crd('tracingpoliciesnamespaced', 'TracingPolicyNamespaced'),
      'apiVersion: example.org/v1\nkind: PodInfo\nmetadata: { name: p }\nspec: { keep: 1 }\n',
    );
    expect(findings).toEqual([]);
    expect(definitions.map((d) => d.type)).toEqual([
      'PodInfo.example.org',
      'TracingPoliciesnamespaced.example.org',
    ]);
    expect(resources.map((r) => r.resource.metadata.type)).toEqual(['PodInfo.example.org']);
  });

  it('refuse a CRD whose name is not <plural>.<group>', () => {
    const text = backupCrd(VERSION_V1).replace('name: backups.example.org', 'name: backup');
    const { definitions, findings } = loadManifests([{ path: 'crd.yaml', text }]);
    expect(definitions).toEqual([]);
    expect(findings.map(where)).toContainEqual([
      'invalid-definition',
      'crd-name',
      4,
      9,
      '/metadata/name',
    ]);
  });

  it('refuse a CRD that serves no version, or has no single storage version', () => {
    const noServed = backupCrd(VERSION_V1.replace('served: true', 'served: false'));
    const noStorage = backupCrd(VERSION_V1.replace('storage: true', 'storage: false'));
    const rules = (text: string) =>
      loadManifests([{ path: 'crd.yaml', text }]).findings.map((f) => f.rule);
    expect(rules(noServed)).toContain('no-served-version');
    expect(rules(noStorage)).toContain('storage-version');
  });

  it("check a version that is not served as any version: its schema's errors and columns refuse the CRD", () => {
    const unserved = (schema: string, columns = '') => `    - name: v1alpha1
      served: false
      storage: false
${columns}      schema:
        openAPIV3Schema:
${schema}`;
    const broken = unserved(
      `          type: object
          properties:
            spec:
              properties:
                keep: { type: integer }
`,
      `      additionalPrinterColumns:
        - { name: Keep, type: integer, jsonPath: spec.keep }
`,
    );
    const refused = load(backupCrd(VERSION_V1 + broken));
    expect(refused.definitions).toEqual([]);
    expect(refused.findings.map((f) => [f.code, f.pointer])).toEqual([
      ['invalid-definition', '/spec/versions/1/additionalPrinterColumns/0/jsonPath'],
      ['invalid-schema', '/spec/versions/1/schema/openAPIV3Schema/properties/spec'],
    ]);
    const missing = load(
      backupCrd(`${VERSION_V1}    - { name: v1alpha1, served: false, storage: false }\n`),
    );
    expect(missing.findings.map((f) => [f.rule, f.pointer])).toEqual([
      ['missing-schema', '/spec/versions/1'],
    ]);
    // A fine one defines no kind, and a served version that is not the storage one is fine.
    const fine = load(
      backupCrd(
        VERSION_V1.replace('storage: true', 'storage: false') +
          unserved('          type: object\n').replace('storage: false', 'storage: true'),
      ),
    );
    expect(fine.findings).toEqual([]);
    expect(fine.definitions.map((d) => d.type)).toEqual(['Backups.v1.example.org']);
  });

  it('refuse a version listed twice or not named as a DNS-1035 label', () => {
    const twice = backupCrd(VERSION_V1 + VERSION_V1.replace('storage: true', 'storage: false'));
    expect(load(twice).findings.map((f) => [f.rule, f.pointer])).toEqual([
      ['duplicate-version', '/spec/versions/1/name'],
    ]);
    const badName = backupCrd(VERSION_V1.replace('- name: v1', '- name: V1.0'));
    expect(load(badName).findings.map((f) => [f.rule, f.pointer])).toEqual([
      ['version-name', '/spec/versions/0/name'],
    ]);
  });

  it('refuse names that are no DNS-1035 labels, as the API server does (a kind once lower-cased)', () => {
    const names = backupCrd(VERSION_V1).replace(
      'names: { plural: backups, singular: backup, kind: Backup, shortNames: [bk] }',
      'names: { plural: backups, singular: Backup, kind: Back.Up, listKind: BackupList, shortNames: [bk, b_k], categories: [all] }',
    );
    const { findings } = load(names);
    expect(findings.map((f) => [f.rule, f.pointer])).toEqual([
      ['crd-names', '/spec/names/singular'],
      ['crd-names', '/spec/names/kind'],
      ['crd-names', '/spec/names/shortNames/1'],
    ]);
    expect(findings[1]?.message).toBe(
      'the kind "Back.Up" must be a DNS-1035 label once lower-cased (letters, digits and "-", starting with a letter, at most 63)',
    );
  });

  it('refuse a CRD of the wrong shape at the field', () => {
    const text = backupCrd(VERSION_V1).replace('scope: Namespaced', 'scope: Everywhere');
    const { findings } = loadManifests([{ path: 'crd.yaml', text }]);
    expect(findings.map(where)).toContainEqual([
      'invalid-definition',
      'crd-shape',
      8,
      10,
      '/spec/scope',
    ]);
  });

  it("report an unsupported scope or column type with every version's schema errors in one run", () => {
    const v1alpha1 = `    - name: v1alpha1
      served: true
      storage: false
      additionalPrinterColumns:
        - { name: Age, type: duration, jsonPath: .metadata.creationTimestamp }
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { properties: { keep: { type: integer } } }
`;
    const broken = VERSION_V1.replace(
      'keep: { type: integer }',
      'keep: { type: integer, default: many }',
    );
    const text = backupCrd(v1alpha1 + broken).replace('scope: Namespaced', 'scope: namespaced');
    const { findings, definitions } = load(text);
    expect(definitions).toEqual([]);
    expect(findings.map((f) => [f.code, f.rule, f.pointer])).toEqual([
      ['invalid-definition', 'crd-shape', '/spec/scope'],
      ['invalid-definition', 'crd-shape', '/spec/versions/0/additionalPrinterColumns/0/type'],
      ['invalid-schema', 'type', '/spec/versions/0/schema/openAPIV3Schema/properties/spec'],
      [
        'invalid-schema',
        'type',
        '/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/keep/default',
      ],
    ]);
  });

  it('report a schema that is not structural at its node in the CRD', () => {
    const text = backupCrd(VERSION_V1.replace('keep: { type: integer }', 'keep: { minimum: 1 }'));
    const { findings } = loadManifests([{ path: 'crd.yaml', text }]);
    expect(findings.map(where)).toContainEqual([
      'invalid-schema',
      'type',
      23,
      23,
      '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/keep',
    ]);
  });

  it("report a definition's errors and its schemas' in one run, as the API server's one error list", () => {
    const broken = VERSION_V1.replace('name: v1', 'name: V1').replace(
      'keep: { type: integer }',
      'keep: { type: integer }\n                tags: { type: array, uniqueItems: true, items: { type: string } }',
    );
    const second = VERSION_V1.replace('name: v1', 'name: v2').replace(
      'keep: { type: integer }',
      'keep: { type: integer }\n                other: { minimum: 1 }',
    );
    const { definitions, findings } = load(backupCrd(broken + second));
    expect(definitions).toEqual([]);
    expect(findings.map((f) => [f.code, f.rule, f.pointer])).toEqual([
      ['invalid-definition', 'storage-version', '/spec/versions'],
      ['invalid-definition', 'version-name', '/spec/versions/0/name'],
      [
        'invalid-schema',
        'uniqueItems',
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/tags/uniqueItems',
      ],
      [
        'invalid-schema',
        'type',
        '/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/other',
      ],
    ]);
  });

  it("report a refused printer column and the version's schema errors together", () => {
    const version = `${VERSION_V1.replace('keep: { type: integer }', 'keep: { minimum: 1 }')}      additionalPrinterColumns:
        - { name: Keep, type: integer, jsonPath: spec.keep }
`;
    expect(load(backupCrd(version)).findings.map((f) => [f.code, f.rule])).toEqual([
      ['invalid-schema', 'type'],
      ['invalid-definition', 'invalid-print-column'],
    ]);
  });

  it('report a CRD defined twice at the second one', () => {
    const text = backupCrd(VERSION_V1);
    const { findings } = loadManifests([
      { path: 'a.yaml', text },
      { path: 'b.yaml', text },
    ]);
    expect(findings.map((f) => [f.code, f.file, f.pointer, f.related?.file])).toContainEqual([
      'duplicate-definition',
      'b.yaml',
      '/metadata/name',
      'a.yaml',
    ]);
  });

  it('take none of the versions of a second CRD of a kind: the first is the kind, whole (velero testdata)', () => {
    const first = backupCrd(VERSION_V1);
    // Serves v1 (not stored) and v2: its v1 type is free, its v2 type is the first CRD's.
    const second = backupCrd(
      VERSION_V1.replace('storage: true', 'storage: false').replaceAll('keep', 'other') +
        VERSION_V1.replace('name: v1', 'name: v2'),
    );
    const backup = (version: string, field: string) =>
      `apiVersion: example.org/${version}\nkind: Backup\nmetadata: { name: b${version} }\nspec: { ${field}: 1 }\n`;
    const { findings, definitions } = loadManifests([
      { path: 'a.yaml', text: first },
      { path: 'b.yaml', text: second },
      { path: 'v1.yaml', text: backup('v1', 'keep') },
      { path: 'v2.yaml', text: backup('v2', 'keep') },
    ]);
    expect(definitions.map((d) => d.type)).toEqual(['Backups.example.org']);
    expect(findings.map((f) => [f.code, f.file])).toEqual([
      ['duplicate-definition', 'b.yaml'],
      ['unknown-type', 'v2.yaml'],
    ]);
    expect(findings[1]?.message).toMatch(/serves v1$/);
  });

  it('take a given CRD checked again in the tree, but not one serving other versions (prometheus-operator crd and crd-full)', () => {
    const full = backupCrd(
      VERSION_V1 +
        VERSION_V1.replace('name: v1', 'name: v2').replace('storage: true', 'storage: false'),
    );
    const given = loadManifests([{ path: 'crds/full.yaml', text: full }]).definitions;
    const options = {
      definitions: given,
      definitionFiles: new Map(given.map((d) => [d.id, 'crds/full.yaml'])),
    };
    expect(loadManifests([{ path: 'tree.yaml', text: full }], options).findings).toEqual([]);
    const fewer = loadManifests([{ path: 'tree.yaml', text: backupCrd(VERSION_V1) }], options);
    expect(fewer.findings.map((f) => [f.code, f.file, f.message])).toEqual([
      [
        'duplicate-definition',
        'tree.yaml',
        'the type Backups.example.org is already defined at crds/full.yaml:4:9',
      ],
    ]);
  });

  it('say that a CRD of apiextensions.k8s.io/v1beta1 must be rewritten as v1', () => {
    const text = backupCrd(VERSION_V1).replace(
      'apiextensions.k8s.io/v1',
      'apiextensions.k8s.io/v1beta1',
    );
    const { findings } = loadManifests([{ path: 'crd.yaml', text }]);
    expect(findings.map(where)).toEqual([['unknown-type', 'removed-api', 2, 7, '/kind']]);
    expect(findings[0]?.message).toContain(
      'removed in Kubernetes 1.22: use apiVersion: apiextensions.k8s.io/v1',
    );
  });

  describe('printer columns', () => {
    const withColumns = (columns: string) =>
      backupCrd(
        VERSION_V1.replace(
          '      schema:',
          `      additionalPrinterColumns:\n${columns}      schema:`,
        ),
      );

    it('take a filter, as nearly every operator writes its Ready column, and print it', () => {
      const crd = withColumns(`        - name: Ready
          type: string
          jsonPath: .status.conditions[?(@.type=="Ready")].status
        - name: Keep
          type: integer
          jsonPath: .spec.keep
`);
      const backup = `apiVersion: example.org/v1
kind: Backup
metadata: { name: nightly }
spec: { keep: 3 }
status:
  conditions:
    - { type: Synced, status: 'False' }
    - { type: Ready, status: 'True' }
`;
      const withStatus = crd.replace(
        '            spec:\n',
        `            status:
              type: object
              properties:
                conditions:
                  type: array
                  items:
                    type: object
                    properties: { type: { type: string }, status: { type: string } }
            spec:
`,
      );
      const { definitions, resources, findings } = load(withStatus, backup);
      expect(findings).toEqual([]);
      const columns = definitions[0]?.printColumns ?? [];
      expect(columns.map((c) => c.jsonPath)).toEqual([
        '{.status.conditions[?(@.type=="Ready")].status}',
        '{.spec.keep}',
      ]);
      const spec = resources[0]?.resource.spec;
      expect(columns.map((c) => evaluateTemplate(c.jsonPath, spec))).toEqual(['True', '3']);
    });

    it('leave out .metadata columns without refusing the CRD', () => {
      const crd =
        withColumns(`        - { name: Age, type: date, jsonPath: .metadata.creationTimestamp }
        - { name: Keep, type: integer, jsonPath: .spec.keep }
`);
      const { definitions, findings } = load(crd);
      expect(findings).toEqual([]);
      expect(definitions[0]?.printColumns).toEqual([{ name: 'Keep', jsonPath: '{.spec.keep}' }]);
    });

    it('refuse a jsonPath that does not start with ".", as the API server does', () => {
      const crd = withColumns(`        - { name: Keep, type: integer, jsonPath: spec.keep }
`);
      const { definitions, findings } = load(crd);
      expect(definitions).toEqual([]);
      expect(findings.map(where)).toEqual([
        [
          'invalid-definition',
          'invalid-print-column',
          14,
          50,
          '/spec/versions/0/additionalPrinterColumns/0/jsonPath',
        ],
      ]);
    });

    it('refuse a column type or format the API server does not know (ValidateCustomResourceColumnDefinition)', () => {
      const badType = withColumns(`        - { name: Keep, type: int, jsonPath: .spec.keep }
`);
      const badFormat =
        withColumns(`        - { name: Keep, type: integer, format: uint8, jsonPath: .spec.keep }
`);
      for (const crd of [badType, badFormat]) {
        const { definitions, findings } = load(crd);
        expect(definitions).toEqual([]);
        expect(findings.map((f) => [f.code, f.rule, f.line])).toEqual([
          ['invalid-definition', 'crd-shape', 14],
        ]);
      }
    });

    it('leave out a column that does not parse with a warning, as the API server falls back', () => {
      const crd = withColumns(`        - { name: Odd, type: string, jsonPath: ".spec['a b']" }
        - { name: Keep, type: integer, jsonPath: .spec.keep }
`);
      const { definitions, findings } = load(crd);
      expect(findings.map((f) => [f.code, f.severity, f.line])).toEqual([
        ['ignored-print-column', 'warning', 14],
      ]);
      expect(definitions[0]?.printColumns).toEqual([{ name: 'Keep', jsonPath: '{.spec.keep}' }]);
    });
  });

  describe('refused where the API server refuses them (ValidateCustomResourceDefinitionOpenAPISchema)', () => {
    /** A Backup CRD whose openAPIV3Schema's `spec` is `spec` (YAML, indented by 14). */
    const specSchema = (spec: string) =>
      backupCrd(`    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
${spec}`);
    const refusal = (spec: string) => {
      const { definitions, findings } = load(specSchema(spec));
      expect(definitions).toEqual([]);
      return findings.map(where);
    };

    it('a rule inside allOf, anyOf, oneOf or not (TestValidateCustomResourceDefinitionOpenAPISchema: x-kubernetes-validations in allOf)', () => {
      for (const junctor of ['allOf', 'anyOf', 'oneOf']) {
        expect(
          refusal(`              type: object
              ${junctor}:
                - x-kubernetes-validations:
                    - rule: self.size() > 0
`),
        ).toEqual([
          [
            'cel-invalid-rule',
            'nested-validations',
            21,
            21,
            `/spec/versions/0/schema/openAPIV3Schema/properties/spec/${junctor}/0/x-kubernetes-validations`,
          ],
        ]);
      }
      expect(
        refusal(`              type: object
              not:
                properties:
                  a:
                    x-kubernetes-validations: [{ rule: 'self > 0' }]
`).map((f) => f[1]),
      ).toEqual(['nested-validations']);
    });

    it('a rule on several lines without a message (TestValidationRules: rule with line breaks)', () => {
      expect(
        refusal(`              type: object
              x-kubernetes-validations:
                - rule: |
                    self.size() > 0 &&
                    self.size() < 5
                  messageExpression: "'bad'"
`),
      ).toEqual([
        [
          'cel-invalid-rule',
          'rule-message',
          20,
          19,
          '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0/message',
        ],
      ]);
      const withMessage = specSchema(`              type: object
              x-kubernetes-validations:
                - rule: |
                    self.size() > 0 &&
                    self.size() < 5
                  message: between one and four fields
`);
      expect(load(withMessage).findings).toEqual([]);
    });

    it('a default its own rule refuses (the API server validates defaults)', () => {
      expect(
        refusal(`              type: object
              properties:
                keep:
                  type: integer
                  default: 0
                  x-kubernetes-validations:
                    - { rule: self > 0, message: keep at least one }
`),
      ).toEqual([
        [
          'invalid-schema',
          'default-breaks-rule',
          22,
          28,
          '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/keep/default',
        ],
      ]);
      const goodDefault = specSchema(`              type: object
              properties:
                keep:
                  type: integer
                  default: 1
                  x-kubernetes-validations:
                    - { rule: self > 0, message: keep at least one }
`);
      expect(load(goodDefault).findings).toEqual([]);
    });

    it('a default its own schema refuses, at the default, not at each document (ValidateDefaults)', () => {
      const schema = `              type: object
              properties:
                size: { type: integer, default: big }
                mode: { type: string, enum: [a, b], default: c }
                nested:
                  type: object
                  default: { extra: 1 }
                  properties:
                    x: { type: string }
`;
      expect(refusal(schema)).toEqual([
        [
          'invalid-schema',
          'type',
          20,
          49,
          '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size/default',
        ],
        [
          'invalid-schema',
          'enum',
          21,
          62,
          '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/mode/default',
        ],
        [
          'invalid-schema',
          'unknown-field',
          24,
          30,
          '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/nested/default/extra',
        ],
      ]);
      expect(load(specSchema(schema)).findings.map((f) => f.message)).toContain(
        'the schema of Backups.example.org is invalid: the default must be integer',
      );
      // As written, not with the defaults below it applied (controller-tools#440): {} lacks mode.
      const written = specSchema(`              type: object
              properties:
                policy:
                  type: object
                  default: {}
                  required: [mode]
                  properties:
                    mode: { type: string, enum: [Retain, Delete], default: Retain }
`);
      expect(load(written).findings.map((f) => f.message)).toEqual([
        "the schema of Backups.example.org is invalid: the default must have required property 'mode'",
      ]);
    });

    it('no default the API server does not judge: under additionalProperties, under metadata, repeated set items', () => {
      const crd = specSchema(`              type: object
              properties:
                limits:
                  type: object
                  additionalProperties: { type: integer, default: lots }
                template:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
                  properties:
                    metadata: { type: object, default: { labels: { app: web } } }
                tags:
                  type: array
                  x-kubernetes-list-type: set
                  items: { type: string }
                  default: [a, a]
`);
      expect(load(crd).findings).toEqual([]);
    });

    it('a default of an embedded resource as objectmeta.Validate judges it, and a non-resource default pruned of its kind', () => {
      const findings = load(
        specSchema(`              type: object
              properties:
                object:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
                  default: { apiVersion: v1, metadata: { labels: { "a b": c } } }
                nested:
                  type: object
                  default: { inner: { apiVersion: a/b/c, kind: Bad_Kind } }
                  properties:
                    inner:
                      type: object
                      x-kubernetes-embedded-resource: true
                      properties:
                        apiVersion: { type: string }
                        kind: { type: string }
                plain:
                  type: object
                  default: { kind: Foo, x: a }
                  properties:
                    x: { type: string }
                good:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
                  default: { apiVersion: v1, kind: ConfigMap, metadata: { name: "any: name" } }
`),
      ).findings;
      expect(
        findings.map((f) => [
          f.pointer.replace(/^.*\/properties\/spec\/properties/, ''),
          f.message.replace(/^.*is invalid: /, '').slice(0, 90),
        ]),
      ).toEqual([
        [
          '/object/default/kind',
          'in the default: Required value: an embedded resource (x-kubernetes-embedded-resource) name',
        ],
        [
          '/object/default/metadata/labels/a b',
          'in the default: Invalid value: "a b": name part must consist of alphanumeric characters, \'',
        ],
        [
          '/nested/default/inner/apiVersion',
          'in the default: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
        ],
        [
          '/nested/default/inner/kind',
          'in the default: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match',
        ],
        [
          '/plain/default/kind',
          'the default holds a field its schema does not declare, which the API server would prune: "',
        ],
      ]);
    });

    it('a junctor that types, defaults or describes (validateNestedValueValidation), but an int-or-string anyOf stands', () => {
      const findings = load(
        specSchema(`              type: object
              properties:
                mode:
                  type: string
                  anyOf:
                    - { type: string, enum: [a] }
                    - { pattern: "^b", description: b mode }
                size:
                  x-kubernetes-int-or-string: true
                  anyOf: [{ type: integer }, { type: string }]
                limit:
                  x-kubernetes-int-or-string: true
                  allOf:
                    - anyOf: [{ type: integer }, { type: string }]
                    - { pattern: "^[0-9]" }
                items:
                  type: array
                  items: { type: string }
                  not: { nullable: true, default: [], x-kubernetes-list-type: set }
`),
      ).findings;
      expect(
        findings.map((f) => [
          f.pointer.replace(/^.*\/properties\/spec/, ''),
          f.message.replace(/^.*is invalid: /, ''),
        ]),
      ).toEqual([
        ['/properties/mode/anyOf/0/type', 'Forbidden: must be empty to be structural'],
        ['/properties/mode/anyOf/1/description', 'Forbidden: must be empty to be structural'],
        [
          '/properties/items/not/type',
          'Required value: must be array if x-kubernetes-list-type is specified',
        ],
        ['/properties/items/not/nullable', 'Forbidden: must be false to be structural'],
        ['/properties/items/not/default', 'Forbidden: must be undefined to be structural'],
        [
          '/properties/items/not/x-kubernetes-list-type',
          'Forbidden: must be undefined to be structural',
        ],
      ]);
    });

    it('a list or map annotation under allOf, anyOf, oneOf or not: not structural, and untyped there', () => {
      const findings = load(
        specSchema(`              type: object
              properties:
                labels:
                  type: object
                  additionalProperties: { type: string }
                  allOf:
                    - x-kubernetes-map-type: atomic
                  anyOf:
                    - { type: object, x-kubernetes-map-type: granular }
                tags:
                  type: array
                  items: { type: string }
                  oneOf:
                    - x-kubernetes-list-type: set
                  not:
                    x-kubernetes-list-map-keys: [name]
`),
      ).findings;
      expect(
        findings.map((f) => [
          f.pointer.replace(/^.*\/properties\/spec/, ''),
          f.message.replace(/^.*is invalid: /, ''),
        ]),
      ).toEqual([
        [
          '/properties/labels/allOf/0/type',
          'Required value: must be object if x-kubernetes-map-type is specified',
        ],
        [
          '/properties/labels/allOf/0/x-kubernetes-map-type',
          'Forbidden: must be undefined to be structural',
        ],
        ['/properties/labels/anyOf/0/type', 'Forbidden: must be empty to be structural'],
        [
          '/properties/labels/anyOf/0/x-kubernetes-map-type',
          'Forbidden: must be undefined to be structural',
        ],
        [
          '/properties/tags/oneOf/0/type',
          'Required value: must be array if x-kubernetes-list-type is specified',
        ],
        [
          '/properties/tags/oneOf/0/x-kubernetes-list-type',
          'Forbidden: must be undefined to be structural',
        ],
        [
          '/properties/tags/not/x-kubernetes-list-type',
          'Required value: must be map if x-kubernetes-list-map-keys is non-empty',
        ],
        [
          '/properties/tags/not/x-kubernetes-list-map-keys',
          'Forbidden: must be empty to be structural',
        ],
      ]);
    });

    it('list and map annotations the API server refuses (ValidateCustomResourceDefinitionOpenAPISchema)', () => {
      const findings = load(
        specSchema(`              type: object
              properties:
                tags: { type: string, x-kubernetes-list-type: set }
                labels: { type: object, x-kubernetes-map-type: loose }
                ports:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name, port, name]
                  items:
                    type: object
                    properties:
                      name: { type: string }
                      port: { type: object }
                keys:
                  type: array
                  x-kubernetes-list-map-keys: [id]
                  items: { type: object, required: [id], properties: { id: { type: string } } }
                pairs:
                  type: array
                  x-kubernetes-list-type: set
                  items: { type: object, properties: { a: { type: string } } }
`),
      ).findings;
      expect(
        findings.map((f) => [
          f.pointer.replace(/^.*\/properties\/spec/, ''),
          f.message.replace(/^.*is invalid: /, ''),
        ]),
      ).toEqual([
        [
          '/properties/tags/type',
          'Invalid value: "string": must be array if x-kubernetes-list-type is specified',
        ],
        [
          '/properties/labels/x-kubernetes-map-type',
          'Unsupported value: "loose": supported values: "atomic", "granular"',
        ],
        [
          '/properties/ports/x-kubernetes-list-map-keys',
          'Invalid value: []string{"name", "port", "name"}: must not contain duplicate entries',
        ],
        [
          '/properties/ports/items/properties/name/default',
          'Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        ],
        [
          '/properties/ports/items/properties/port/default',
          'Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        ],
        [
          '/properties/ports/items/properties/port/type',
          'Invalid value: "object": must be a scalar type if parent array\'s x-kubernetes-list-type is map',
        ],
        [
          '/properties/keys/x-kubernetes-list-type',
          'Required value: must be map if x-kubernetes-list-map-keys is non-empty',
        ],
        [
          '/properties/pairs/items/x-kubernetes-map-type',
          'Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set',
        ],
      ]);
      const fine = specSchema(`              type: object
              properties:
                ports:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name, protocol]
                  items:
                    type: object
                    required: [name]
                    properties:
                      name: { type: string }
                      protocol: { type: string, default: TCP }
                pairs:
                  type: array
                  x-kubernetes-list-type: set
                  items: { type: object, x-kubernetes-map-type: atomic, properties: { a: { type: string } } }
`);
      expect(load(fine).findings).toEqual([]);
    });

    it('a default object that breaks a rule of one of its fields, at the field', () => {
      expect(
        refusal(`              type: object
              default: { keep: -1 }
              properties:
                keep:
                  type: integer
                  x-kubernetes-validations:
                    - { rule: self > 0, message: keep at least one }
`),
      ).toEqual([
        [
          'invalid-schema',
          'default-breaks-rule',
          19,
          32,
          '/spec/versions/0/schema/openAPIV3Schema/properties/spec/default/keep',
        ],
      ]);
    });

    it('oldSelf on the items of an atomic list or one with no list type, or of a set (TestValidateCustomResourceDefinitionOpenAPISchema: oldSelf uncorrelatable)', () => {
      for (const listType of [
        '',
        'x-kubernetes-list-type: atomic',
        'x-kubernetes-list-type: set',
      ]) {
        expect(
          refusal(`              type: object
              properties:
                hosts:
                  type: array
                  ${listType}
                  items:
                    type: string
                    maxLength: 10 # as the API server's test: else over the cost budget
                    x-kubernetes-validations:
                      - { rule: self == oldSelf, message: immutable }
`),
        ).toEqual([
          [
            'cel-invalid-rule',
            'uncorrelatable-old-self',
            27,
            33,
            '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/hosts/items/x-kubernetes-validations/0/rule',
          ],
        ]);
      }
      const mapList = specSchema(`              type: object
              properties:
                hosts:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name]
                  items:
                    type: object
                    required: [name]
                    properties: { name: { type: string } }
                    x-kubernetes-validations:
                      - { rule: self == oldSelf, message: immutable }
`);
      expect(load(mapList).findings).toEqual([]);
    });

    it("takes oldSelf below an atomic map, whose fields correlate as a granular one's (MapIsCorrelatable; cloudnative-pg's Cluster)", () => {
      const atomic = specSchema(`              type: object
              x-kubernetes-map-type: atomic
              properties:
                region:
                  type: string
                  x-kubernetes-validations:
                    - { rule: self == oldSelf, message: immutable }
`);
      expect(load(atomic).findings).toEqual([]);
    });

    it('optionalOldSelf, true or false, on a rule that does not use oldSelf (TestValidationRules: optionalOldSelf without oldSelf)', () => {
      for (const value of ['true', 'false']) {
        expect(
          refusal(`              type: object
              x-kubernetes-validations:
                - { rule: self.size() > 0, optionalOldSelf: ${value} }
`),
        ).toEqual([
          [
            'cel-invalid-rule',
            'optional-old-self',
            20,
            61,
            '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0/optionalOldSelf',
          ],
        ]);
      }
    });

    it("a fieldPath that is a list index or names an undeclared field, not .a['b c'] nor a map key (ValidFieldPath)", () => {
      const schema = (fieldPath: string) => `              type: object
              x-kubernetes-validations:
                - { rule: 'true', fieldPath: "${fieldPath}" }
              properties:
                a:
                  type: object
                  properties: { 'b c': { type: string }, bbb: { type: object, additionalProperties: { type: string } } }
                list: { type: array, items: { type: string } }
`;
      expect(load(specSchema(schema(".a['b c']"))).findings).toEqual([]);
      expect(load(specSchema(schema('.a.bbb.34'))).findings).toEqual([]);
      for (const bad of ['.list[0]', '.a.nope', 'a']) {
        expect(refusal(schema(bad))).toEqual([
          [
            'cel-invalid-rule',
            'rule-field-path',
            20,
            46,
            '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0/fieldPath',
          ],
        ]);
      }
    });
  });

  describe('spec.preserveUnknownFields: true, which a v1 CRD may not set (validatePreserveUnknownFields)', () => {
    const message = (f: Finding) => [f.pointer, f.message];

    it('refuse it, pointing at x-kubernetes-preserve-unknown-fields instead', () => {
      const { definitions, findings } = load(
        backupCrd(VERSION_V1, '  preserveUnknownFields: true\n'),
      );
      expect(definitions).toEqual([]);
      expect(findings.map((f) => [f.code, f.rule, f.line])).toEqual([
        ['invalid-definition', 'preserve-unknown-fields', 9],
      ]);
      expect(findings.map(message)).toEqual([
        [
          '/spec/preserveUnknownFields',
          'Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
        ],
      ]);
    });

    it('say also that a schema with defaults, or a Webhook conversion, needs it false', () => {
      const withDefault = VERSION_V1.replace(
        'keep: { type: integer }',
        'keep: { type: integer, default: 1 }',
      );
      const extra = '  preserveUnknownFields: true\n  conversion: { strategy: Webhook }\n';
      expect(load(backupCrd(withDefault, extra)).findings.map(message)).toEqual([
        [
          '/spec/preserveUnknownFields',
          'Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
        ],
        [
          '/spec/preserveUnknownFields',
          'Invalid value: true: must be false in order to use defaults in the schema',
        ],
        // validateCustomResourceConversion: the Webhook strategy has no webhook either.
        [
          '/spec/conversion',
          'Required value: required when strategy is set to Webhook (webhook.clientConfig)',
        ],
        ['/spec/conversion', 'Required value (webhook.conversionReviewVersions)'],
        [
          '/spec/conversion/strategy',
          'Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
        ],
      ]);
    });

    it('take it false', () => {
      expect(load(backupCrd(VERSION_V1, '  preserveUnknownFields: false\n')).findings).toEqual([]);
    });
  });

  describe("every keyword of the API server's JSONSchemaProps", () => {
    const crd = backupCrd(`    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          title: Backup
          description: A backup schedule.
          externalDocs: { description: Backups, url: https://example.org/backups }
          example: { spec: { keep: 3 } }
          properties:
            spec:
              type: object
              nullable: true
              minProperties: 1
              maxProperties: 10
              x-kubernetes-map-type: granular
              properties:
                keep:
                  type: integer
                  format: int32
                  minimum: 0
                  exclusiveMinimum: true
                  maximum: 100
                  exclusiveMaximum: false
                  multipleOf: 1
                  example: 7
                  default: 1
                schedule:
                  type: string
                  pattern: '^[0-9*/ ,-]+$'
                  minLength: 1
                  maxLength: 64
                  enum: ['0 * * * *', '*/5 * * * *']
                tags:
                  type: array
                  uniqueItems: false
                  minItems: 0
                  maxItems: 8
                  x-kubernetes-list-type: set
                  items: { type: string }
                template:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
                port:
                  x-kubernetes-int-or-string: true
                  anyOf: [{ type: integer }, { type: string }]
                  not: { enum: [0] }
`);

    it('load: title, description, externalDocs, example, nullable, formats, bounds, OpenAPI v3.0 boolean exclusive bounds, embedded resources', () => {
      const { definitions, findings } = load(crd);
      expect(findings).toEqual([]);
      expect(definitions.map((d) => d.type)).toEqual(['Backups.example.org']);
    });

    it('check exclusiveMinimum: true as OpenAPI v3.0 means it (keep > 0)', () => {
      const doc = (keep: number) =>
        `apiVersion: example.org/v1\nkind: Backup\nmetadata: { name: b }\nspec: { keep: ${keep} }\n`;
      expect(load(crd, doc(1)).findings).toEqual([]);
      expect(load(crd, doc(0)).findings.map((f) => [f.code, f.pointer])).toEqual([
        ['schema-violation', '/spec/keep'],
      ]);
    });

    it('check a decimal multipleOf as the API server does: 0.3 and 2.3 of 0.1, 0.07 of 0.01 are multiples', () => {
      const ratios = backupCrd(`    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                tenth: { type: number, multipleOf: 0.1 }
                cent: { type: number, multipleOf: 0.01 }
`);
      const doc = (spec: string) =>
        `apiVersion: example.org/v1\nkind: Backup\nmetadata: { name: b }\nspec: ${spec}\n`;
      expect(load(ratios, doc('{ tenth: 0.3, cent: 0.07 }')).findings).toEqual([]);
      expect(load(ratios, doc('{ tenth: 2.3, cent: 0.29 }')).findings).toEqual([]);
      expect(
        load(ratios, doc('{ tenth: 0.35, cent: 0.005 }')).findings.map((f) => f.pointer),
      ).toEqual(['/spec/tenth', '/spec/cent']);
    });

    it('refuse uniqueItems: true, as the API server does in a structural schema', () => {
      const { definitions, findings } = load(
        crd.replace('uniqueItems: false', 'uniqueItems: true'),
      );
      expect(definitions).toEqual([]);
      expect(findings.map((f) => [f.code, f.rule])).toEqual([['invalid-schema', 'uniqueItems']]);
    });
  });

  describe('names the API server would not accept', () => {
    it('refuse a second CRD serving the same group and kind, as KindConflict, and keep the first', () => {
      const first = backupCrd(VERSION_V1);
      const second = first
        .replace('name: backups.example.org', 'name: snapshots.example.org')
        .replace('plural: backups, singular: backup', 'plural: snapshots, singular: snapshot')
        .replace('shortNames: [bk]', 'shortNames: [snap]');
      const { definitions, findings } = load(first, second);
      expect(definitions.map((d) => d.id)).toEqual(['backups.example.org']);
      expect(findings.map((f) => [f.code, f.rule, f.file, f.line, f.pointer])).toEqual([
        ['invalid-definition', 'KindConflict', 'm1.yaml', 7, '/spec/names/kind'],
      ]);
    });

    it('refuse a short name another CRD of the group has (ShortNamesConflict)', () => {
      const first = backupCrd(VERSION_V1);
      const second = first
        .replace('name: backups.example.org', 'name: snapshots.example.org')
        .replace('plural: backups, singular: backup', 'plural: snapshots, singular: snapshot')
        .replace('kind: Backup', 'kind: Snapshot');
      expect(load(first, second).findings.map((f) => [f.rule, f.pointer])).toEqual([
        ['ShortNamesConflict', '/spec/names/shortNames/0'],
      ]);
    });

    it('take one kind in two groups', () => {
      const first = backupCrd(VERSION_V1);
      const second = first.replaceAll('example.org', 'example.com');
      expect(load(first, second).findings).toEqual([]);
    });

    it('refuse a group without a dot (apps, batch: the built-in ones) or not a DNS-1123 subdomain', () => {
      for (const group of ['apps', 'batch', 'Example.org', 'example_org.io']) {
        const crd = backupCrd(VERSION_V1).replaceAll('example.org', group);
        const { definitions, findings } = load(crd);
        expect(definitions).toEqual([]);
        expect(findings.map((f) => [f.code, f.rule, f.pointer])).toEqual([
          ['invalid-definition', 'crd-group', '/spec/group'],
        ]);
      }
    });

    it('refuse a CRD in a protected Kubernetes group without the api-approved annotation (validateAPIApproval)', () => {
      const inGroup = (group: string, annotations = '') =>
        backupCrd(VERSION_V1)
          .replaceAll('example.org', group)
          .replace('metadata:\n', `metadata:\n${annotations}`);
      for (const group of ['x-k8s.io', 'storage.k8s.io', 'k8s.io', 'policy.kubernetes.io']) {
        const { definitions, findings } = load(inGroup(group));
        if (group === 'x-k8s.io') {
          // Not a subdomain of k8s.io: no approval needed.
          expect(findings).toEqual([]);
          continue;
        }
        expect(definitions).toEqual([]);
        expect(findings.map((f) => [f.rule, f.line, f.pointer])).toEqual([
          ['api-approval', 4, '/metadata/annotations/api-approved.kubernetes.io'],
        ]);
      }
      for (const approval of [
        'https://github.com/kubernetes/enhancements/pull/1111',
        'unapproved, experimental-only',
      ]) {
        const approved = inGroup(
          'gateway.networking.k8s.io',
          `  annotations: { api-approved.kubernetes.io: '${approval}' }\n`,
        );
        expect(load(approved).findings).toEqual([]);
      }
      const invalid = inGroup(
        'gateway.networking.k8s.io',
        '  annotations: { api-approved.kubernetes.io: approved }\n',
      );
      expect(load(invalid).findings.map((f) => [f.rule, f.line, f.col])).toEqual([
        ['api-approval', 4, 46],
      ]);
    });
  });
});

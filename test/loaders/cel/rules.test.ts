import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDefinition } from '../../../src/engine/resource/definition.js';
import { type Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { RecordedPriorState } from '../../../src/loaders/cel/prior-state.js';
import { readManifests } from '../../../src/loaders/manifest-reader.js';

const root = fileURLToPath(new URL('../../../fixtures/cel/', import.meta.url));

/** code, file, line, col, pointer, and the reason for CEL findings. */
/** What the API server adds when an error kept the CEL rules from running. */
const RULES_NOT_CHECKED =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

const where = (f: Finding): [string, string, number, number, string, string | undefined] => [
  f.code,
  f.file,
  f.line,
  f.col,
  f.pointer,
  f.rule,
];

describe('CEL rules in definitions', () => {
  it('pass a resource that keeps every rule', async () => {
    const result = await readManifests(['definitions', 'valid'], { cwd: root });
    expect(result.findings).toEqual([]);
    expect(result.resources.map((r) => r.resource.metadata.id)).toEqual(['prod']);
  });

  it('report each broken rule at its node, or at its fieldPath, with its message and reason', async () => {
    const result = await readManifests(['definitions', 'invalid'], { cwd: root });
    expect(result.findings.map(where)).toEqual([
      // Root rules: placed by fieldPath. The region's transition rule is skipped (a create).
      ['cel-violation', 'invalid/clusters.yaml', 7, 13, '/spec/minNodes', 'FieldValueInvalid'],
      ['cel-violation', 'invalid/clusters.yaml', 8, 13, '/spec/maxNodes', 'FieldValueInvalid'],
      // A nested object and a field of it.
      ['cel-violation', 'invalid/clusters.yaml', 10, 5, '/spec/network', 'FieldValueInvalid'],
      [
        'cel-violation',
        'invalid/clusters.yaml',
        12,
        15,
        '/spec/network/endpoint',
        'FieldValueInvalid',
      ],
      // The list, then an item of it.
      ['cel-violation', 'invalid/clusters.yaml', 14, 5, '/spec/pools', 'FieldValueInvalid'],
      ['cel-violation', 'invalid/clusters.yaml', 14, 7, '/spec/pools/0', 'FieldValueForbidden'],
      // A map value.
      ['cel-violation', 'invalid/clusters.yaml', 19, 11, '/spec/labels/team', 'FieldValueInvalid'],
    ]);
    expect(result.resources).toEqual([]);
    const messages = result.findings.map((f) => f.message);
    expect(messages).toContain('minNodes must not exceed maxNodes');
    expect(messages).toContain('gateway 192.168.0.1 is outside 10.0.');
    expect(messages).toContain("a pool's memory must be under 64Gi");
    expect(messages.some((m) => m.startsWith('not a label value: '))).toBe(true);
  });

  it('refuse a definition whose rules do not compile, at each rule', async () => {
    const result = await readManifests(['invalid-rule'], { cwd: root });
    expect(result.findings.map(where).filter(([code]) => code !== 'empty-input')).toEqual([
      [
        'cel-invalid-rule',
        'invalid-rule/definitions.yaml',
        14,
        19,
        '/spec/schema/properties/size/x-kubernetes-validations/0/rule',
        'rule-compile',
      ],
      [
        'cel-invalid-rule',
        'invalid-rule/definitions.yaml',
        15,
        19,
        '/spec/schema/properties/size/x-kubernetes-validations/1/rule',
        'rule-compile',
      ],
      [
        'cel-invalid-rule',
        'invalid-rule/definitions.yaml',
        17,
        21,
        '/spec/schema/properties/size/x-kubernetes-validations/2/reason',
        'rule-shape',
      ],
      [
        'cel-invalid-rule',
        'invalid-rule/definitions.yaml',
        19,
        15,
        '/spec/schema/x-kubernetes-validations/0/rule',
        'rule-compile',
      ],
    ]);
    // A field the schema does not declare, as the API server's type check refuses it.
    expect(result.findings.at(-1)?.message).toContain("undefined field 'sise'");
    expect(result.definitions).toEqual([]);
  });

  it('check a resource found in the previous revision as an update, a new one as a create', async () => {
    const v1 = await readManifests(['revisions/v1'], { cwd: root });
    expect(v1.findings).toEqual([]);
    const previous = new RecordedPriorState();
    previous.record(v1.resources);
    const v2 = await readManifests(['revisions/v2'], { cwd: root, previous });
    expect(v2.findings.map(where)).toEqual([
      // prod: its region changed and its maxNodes shrank (transition rules, with oldSelf).
      ['cel-violation', 'revisions/v2/clusters.yaml', 6, 11, '/spec/region', 'FieldValueInvalid'],
      ['cel-violation', 'revisions/v2/clusters.yaml', 8, 13, '/spec/maxNodes', 'FieldValueInvalid'],
      // dev is new: the region rule is skipped; the optionalOldSelf rule runs with no oldSelf.
      [
        'cel-violation',
        'revisions/v2/clusters.yaml',
        24,
        13,
        '/spec/maxNodes',
        'FieldValueInvalid',
      ],
    ]);
    expect(v2.findings[0]?.message).toBe('region is immutable');
    expect(v2.resources.map((r) => r.resource.metadata.id)).toEqual(['staging']);
  });

  it('skip every transition rule when there is no previous revision', async () => {
    const v2 = await readManifests(['revisions/v2'], { cwd: root });
    expect(v2.findings.map((f) => f.pointer)).toEqual(['/spec/maxNodes']);
  });
});

describe('CEL rules in a definition of the config', () => {
  const definition = createDefinition({
    type: 'Buckets.cel.example.org',
    schema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          // Unbounded, the label check would cost more than the API server allows one rule.
          maxLength: 63,
          'x-kubernetes-validations': [
            {
              rule: '!format.dns1123Label().validate(self).hasValue()',
              message: 'not a DNS label',
            },
            { rule: 'self.noSuchMethod()' },
          ],
        },
      },
    },
  });
  const text = (id: string): string =>
    `metadata: { type: Buckets.cel.example.org, id: ${id} }\nspec: { name: Not_A_Label }\n`;

  it('evaluate its valid rules on the manifests and report its broken ones once, at the config', () => {
    const { findings } = loadManifests(
      [
        { path: 'a.yaml', text: text('a') },
        { path: 'b.yaml', text: text('b') },
      ],
      { definitions: [definition], definitionsSource: 'cosi.config.ts' },
    );
    expect(findings.map((f) => [f.code, f.file, f.line, f.pointer])).toEqual([
      ['cel-violation', 'a.yaml', 2, '/spec/name'],
      ['cel-violation', 'b.yaml', 2, '/spec/name'],
      ['cel-invalid-rule', 'cosi.config.ts', 0, ''],
    ]);
  });
});

describe('CEL rules in a CustomResourceDefinition', () => {
  it('evaluate on Kubernetes-shaped resources, the root rule seeing the whole object', async () => {
    const v1 = await readManifests(['crd/v1'], { cwd: root });
    expect(v1.findings).toEqual([]);
    const previous = new RecordedPriorState();
    previous.record(v1.resources);
    const v2 = await readManifests(['crd/v2'], { cwd: root, previous });
    expect(v2.findings.map((f) => [f.code, f.file, f.line, f.col, f.pointer])).toEqual([
      ['cel-violation', 'crd/v2/databases.yaml', 8, 11, '/spec/engine'],
      ['cel-violation', 'crd/v2/databases.yaml', 9, 13, '/spec/replicas'],
      ['cel-violation', 'crd/v2/databases.yaml', 10, 12, '/spec/storage'],
      ['cel-violation', 'crd/v2/databases.yaml', 12, 7, '/spec/users/0'],
      ['cel-violation', 'crd/v2/databases.yaml', 14, 1, ''],
    ]);
    // As kubectl prints them (from 1.35): a scalar's value shown, an object's not.
    expect(v2.findings.map((f) => f.message)).toEqual([
      'Invalid value: "sqlite": engine is immutable',
      'Invalid value: sqlite runs one replica',
      'Invalid value: "512Mi": storage must be a quantity over 1Gi',
      'Invalid value: user App_User is not a DNS label',
      'Invalid value: a database name has at most 20 characters',
    ]);
  });

  it('refuse a CRD whose rule does not compile, at the rule in the CRD', () => {
    const text = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: things.cel.example.org }
spec:
  group: cel.example.org
  names: { kind: Thing, plural: things }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-validations:
            - rule: self.spec.size(
`;
    const { findings, definitions } = loadManifests([{ path: 'crd.yaml', text }]);
    expect(findings.map((f) => [f.code, f.line, f.col])).toContainEqual([
      'cel-invalid-rule',
      16,
      21,
    ]);
    expect(definitions).toEqual([]);
  });
});

describe('CEL rules on strings of a format the API server parses', () => {
  const definition = createDefinition({
    type: 'Jobs.cel.example.org',
    schema: {
      type: 'object',
      properties: {
        timeout: {
          type: 'string',
          format: 'duration',
          'x-kubernetes-validations': [
            { rule: "self <= duration('1h')", message: 'at most an hour' },
          ],
        },
      },
    },
  });
  const load = (timeout: string) =>
    loadManifests(
      [
        {
          path: 'job.yaml',
          text: `metadata: { type: Jobs.cel.example.org, id: a }\nspec: { timeout: ${timeout} }\n`,
        },
      ],
      { definitions: [definition] },
    ).findings.map((f) => [f.code, f.pointer, f.message]);

  it('read the value as its type', () => {
    expect(load('30m')).toEqual([]);
    expect(load('1h30m')).toEqual([['cel-violation', '/spec/timeout', 'at most an hour']]);
  });

  it('do not run when the value does not parse: the schema refuses it', () => {
    expect(load('soon')).toEqual([
      ['cel-not-checked', '/spec', RULES_NOT_CHECKED],
      ['schema-violation', '/spec/timeout', 'must be of type duration: "soon"'],
    ]);
  });

  it('do not run in a CRD when the value does not parse: the schema refuses it', () => {
    const text = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: backups.cel.example.org }
spec:
  group: cel.example.org
  names: { kind: Backup, plural: backups }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                day:
                  type: string
                  format: date
                  x-kubernetes-validations:
                    - rule: self >= timestamp('2020-01-01T00:00:00Z')
---
apiVersion: cel.example.org/v1
kind: Backup
metadata: { name: good, namespace: default }
spec: { day: '2024-02-29' }
---
apiVersion: cel.example.org/v1
kind: Backup
metadata: { name: old, namespace: default }
spec: { day: '2019-12-31' }
---
apiVersion: cel.example.org/v1
kind: Backup
metadata: { name: bad, namespace: default }
spec: { day: '2023-02-29' }
`;
    const { findings } = loadManifests([{ path: 'backups.yaml', text }]);
    expect(findings.map((f) => [f.code, f.line, f.pointer])).toEqual([
      ['cel-violation', 33, '/spec/day'],
      // Skipped, and said so, at the document whose value does not parse.
      ['cel-not-checked', 35, ''],
      ['schema-violation', 38, '/spec/day'],
    ]);
  });
  it('run in a CRD beside errors that leave its types whole (a pattern, a minimum), not beside a wrong type (hasBlockingErr)', () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: ranges.cel.example.org }
spec:
  group: cel.example.org
  names: { kind: Range, plural: ranges }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - rule: self.min <= self.max
                  message: min must not exceed max
              properties:
                code: { type: string, pattern: '^[a-z]+$' }
                min: { type: integer, minimum: 0 }
                max: { type: integer }
`;
    const range = (name: string, spec: string) =>
      `---\napiVersion: cel.example.org/v1\nkind: Range\nmetadata: { name: ${name}, namespace: default }\nspec: ${spec}\n`;
    const { findings } = loadManifests([
      {
        path: 'ranges.yaml',
        text:
          crd +
          range('pattern', '{ code: ABC, min: 5, max: 1 }') +
          range('minimum', '{ min: -5, max: -9 }') +
          range('type', '{ code: 1, min: 5, max: 1 }'),
      },
    ]);
    expect(findings.map((f) => [f.code, f.rule, f.line])).toEqual([
      ['cel-violation', 'FieldValueInvalid', 29],
      ['schema-violation', 'pattern', 29],
      ['cel-violation', 'FieldValueInvalid', 34],
      ['schema-violation', 'minimum', 34],
      // The wrong type keeps the rules from running, and the API server says so.
      ['cel-not-checked', undefined, 36],
      ['schema-violation', 'type', 39],
    ]);
  });

  it("run beside a refused name, namespace, label or embedded resource, all field.Invalid in the API server's metadata checks", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: ranges.cel.example.org }
spec:
  group: cel.example.org
  names: { kind: Range, plural: ranges }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - rule: self.min <= self.max
                  message: min must not exceed max
              properties:
                min: { type: integer }
                max: { type: integer }
                template:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
`;
    const range = (metadata: string, spec: string) =>
      `---\napiVersion: cel.example.org/v1\nkind: Range\nmetadata: ${metadata}\nspec: ${spec}\n`;
    const { findings } = loadManifests([
      {
        path: 'ranges.yaml',
        text:
          crd +
          range('{ name: UPPER }', '{ min: 5, max: 1 }') +
          range('{ name: a, namespace: Bad_NS }', '{ min: 5, max: 1 }') +
          range('{ name: b, labels: { "a b": x } }', '{ min: 5, max: 1 }') +
          range('{ name: c }', '{ min: 5, max: 1, template: { apiVersion: v1, kind: A_B } }') +
          range('{ name: d }', '{ min: 5, max: 1, template: { kind: A } }'),
      },
    ]);
    expect(findings.map((f) => [f.code, f.rule ?? '', f.line])).toEqual([
      ['schema-violation', 'dns-1123-subdomain', 31],
      ['cel-violation', 'FieldValueInvalid', 32],
      ['invalid-namespace', '', 36],
      ['cel-violation', 'FieldValueInvalid', 37],
      ['wrong-type', 'label-key', 41],
      ['cel-violation', 'FieldValueInvalid', 42],
      ['cel-violation', 'FieldValueInvalid', 47],
      ['schema-violation', 'embedded-resource', 47],
      // A missing apiVersion is field.Required: it keeps the rules from running.
      ['cel-not-checked', '', 49],
      ['schema-violation', 'required', 52],
    ]);
  });
});

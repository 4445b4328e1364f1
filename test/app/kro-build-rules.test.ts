import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/app/project-config.js';
import { readProjectManifests } from '../../src/app/read-project-manifests.js';

/** What kro's graph builder (pkg/graph/builder.go, validation.go) refuses, cosi refuses too. */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/**
 * An RGD of kind Thing (spec `name`, `enabled`, `zones`) whose `spec.schema` continues with
 * `schema` (indented by 4) and whose resources are `resources` (indented by 4): line 11 is the
 * first line of `resources` when `schema` is empty.
 */
const rgd = (resources: string, schema = ''): string => `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: thing.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Thing
    spec: { name: string, enabled: boolean, zones: '[]string' }
${schema}  resources:
${resources}`;

/** The errors of the RGD as `line:col code message`. */
async function findings(text: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kro-rules-'));
  dirs.push(dir);
  await writeFile(path.join(dir, 'rgd.yaml'), text);
  const options = { cwd: dir, files: [dir], stable: true };
  const read = await readProjectManifests(options, await loadProjectConfig(options));
  return read.findings
    .filter((f) => f.severity === 'error' && f.code !== 'empty-input')
    .map((f) => `${f.line}:${f.col} ${f.code} ${f.message}`);
}

describe('includeWhen and readyWhen entries (kro parser.UnwrapExpressions)', () => {
  it.each([
    ['includeWhen', 'schema.spec.enabled'],
    ['includeWhen', 'false'],
    ['readyWhen', 'true'],
  ])('refuses a %s entry written without ${...} (%s), which kro refuses', async (key, entry) => {
    const found = await findings(
      rgd(`    - id: cm
      ${key}: ["${entry}"]
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: cm } }
`),
    );
    expect(found).toEqual([
      `12:${key.length + 10} rgd-bad-expression a condition must be one standalone \${...} expression (${JSON.stringify(entry)} has none: write "\${${entry}}")`,
    ]);
  });

  it('refuses a forEach list written without ${...}', async () => {
    const found = await findings(
      rgd(`    - id: cm
      forEach: [{ zone: schema.spec.zones }]
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: '\${zone}' } }
`),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^12:25 rgd-bad-expression a forEach list must be one standalone \$\{\.\.\.\} expression/,
      ),
    ]);
  });
});

describe('forEach identity (kro builder.go buildDependencyGraph)', () => {
  const collection = (name: string, namespace = ''): string =>
    rgd(`    - id: cms
      forEach:
        - zone: \${schema.spec.zones}
        - tier: \${schema.spec.zones}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '${name}'${namespace === '' ? '' : `, namespace: '${namespace}'`} }
`);

  it('refuses a forEach whose iterator neither the name nor the namespace uses', async () => {
    expect(await findings(collection('fixed-${zone}'))).toEqual([
      '14:11 rgd-bad-resource resource cms: all forEach dimensions must be used to produce a unique resource identity (metadata.name or metadata.namespace), as kro requires; missing: tier',
    ]);
  });

  it('accepts the iterators spread over the name and the namespace', async () => {
    expect(await findings(collection('c-${zone}', 'ns-${tier}'))).toEqual([]);
  });

  it('names only metadata.name for a cluster-scoped kind', async () => {
    const found = await findings(
      rgd(`    - id: roles
      forEach: [{ zone: '\${schema.spec.zones}' }]
      template:
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata: { name: fixed }
`),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^12:17 rgd-bad-resource resource roles: .*\(metadata\.name\), .*missing: zone$/,
      ),
    ]);
  });
});

describe('template structure (kro validation.go validateKubernetesObjectStructure)', () => {
  it('refuses a template without metadata', async () => {
    const found = await findings(
      rgd(`    - id: cm
      template: { apiVersion: v1, kind: ConfigMap, data: { a: b } }
`),
    );
    expect(found).toEqual([
      '12:17 rgd-bad-resource resource cm is not a valid Kubernetes object: metadata field not found',
    ]);
  });

  it('accepts a template whose metadata has no name (kro fails only when it applies it)', async () => {
    const found = await findings(
      rgd(`    - id: cm
      template: { apiVersion: v1, kind: ConfigMap, metadata: { labels: { a: b } } }
`),
    );
    expect(found).toEqual([]);
  });
});

describe('readyWhen sees only its own resource (kro builder.go validateAndCompileNode)', () => {
  const collection = (ready: string): string =>
    rgd(`    - id: cms
      forEach: [{ zone: '\${schema.spec.zones}' }]
      readyWhen: ['${ready}']
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: '\${zone}' } }
`);

  it("accepts each in a collection's readyWhen, typed as one item", async () => {
    expect(await findings(collection('${each.data.v != ""}'))).toEqual([]);
    expect(await findings(collection('${each.data.v > 1}'))).toEqual([
      expect.stringMatching(/^13:20 rgd-type-mismatch \$\{each\.data\.v > 1\} does not type-check/),
    ]);
  });

  it("refuses the collection's own id in its readyWhen: kro binds each", async () => {
    expect(await findings(collection('${size(cms) > 0}'))).toEqual([
      '13:20 rgd-unknown-ref ${size(cms) > 0} references "cms": a readyWhen may reference only each (one item of this forEach resource), as kro allows',
    ]);
  });

  it('refuses another resource and schema in a readyWhen', async () => {
    const found = await findings(
      rgd(`    - id: first
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: first } }
    - id: second
      readyWhen: ['\${first.metadata.name == "first" && schema.spec.name == "x"}']
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: second } }
`),
    );
    expect(found).toEqual([
      '14:20 rgd-unknown-ref ${first.metadata.name == "first" && schema.spec.name == "x"} references "first": a readyWhen may reference only the resource itself (second), as kro allows',
      '14:20 rgd-unknown-ref ${first.metadata.name == "first" && schema.spec.name == "x"} references "schema": a readyWhen may reference only the resource itself (second), as kro allows',
    ]);
  });
});

describe('custom types (kro pkg/simpleschema/transform.go loadCustomTypes)', () => {
  const withTypes = (types: string, data: string): string =>
    rgd(
      `    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: cm }
        data: { host: '${data}' }
`,
      `    types:\n${types}`,
    ).replace('spec: { name: string,', 'spec: { cluster: Cluster, name: string,');

  it('resolves a type that uses one declared below it', async () => {
    const types =
      '      Cluster: { primary: Server, replicas: "[]Server" }\n' +
      '      Server: { host: string, port: integer }\n';
    expect(await findings(withTypes(types, '${schema.spec.cluster.primary.host}'))).toEqual([]);
    expect(await findings(withTypes(types, '${schema.spec.cluster.primary.hots}'))).toEqual([
      expect.stringMatching(
        /^19:24 rgd-unknown-field .*reads spec.cluster.primary.hots, .*its fields there are host, port$/,
      ),
    ]);
  });

  it('reports types that use each other as a cycle, once, at the first', async () => {
    const types =
      '      Cluster: { primary: Server }\n' +
      '      Server: { back: "[]Cluster" }\n' +
      '      Self: { next: "map[string]Self" }\n';
    expect(await findings(withTypes(types, 'x'))).toEqual([
      '11:16 rgd-bad-schema cyclic dependency in type Cluster: Cluster -> Server -> Cluster',
      '13:13 rgd-bad-schema cyclic dependency in type Self: Self -> Self',
    ]);
  });
});

describe("SimpleSchema markers against the field's type (kro pkg/simpleschema/markers.go)", () => {
  /** The errors of an RGD whose spec has one field of the given SimpleSchema type. */
  const field = (type: string): Promise<string[]> =>
    findings(
      rgd(
        '    - id: cm\n      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: cm } }\n',
      ).replace(
        `spec: { name: string, enabled: boolean, zones: '[]string' }`,
        `spec: { f: '${type}' }`,
      ),
    );

  it.each([
    ['number | default=1.5', 'unknown type "number": use string, integer, boolean, float, object'],
    [
      'boolean | enum="true,false"',
      'enum values only supported for string and integer types, got type: boolean',
    ],
    [
      'float | enum="1.5,2"',
      'enum values only supported for string and integer types, got type: number',
    ],
    ['string | enum="a,,b"', 'empty enum values are not allowed'],
    ['integer | minLength=3', 'minLength marker is only valid for string types, got type: integer'],
    ['[]string | maxLength=3', 'maxLength marker is only valid for string types, got type: array'],
    ['integer | pattern="^a"', 'pattern marker is only valid for string types, got type: integer'],
    ['string | minItems=1', 'minItems marker is only valid for array types, got type: string'],
    ['string | maxItems=1', 'maxItems marker is only valid for array types, got type: string'],
    ['string | listType=set', 'listType marker only applies to array types'],
    ['string | listMapKey=name', 'listMapKey marker only applies to array types'],
    [
      '[]string | listType=list',
      'unsupported value for listType list, needs to be one of atomic, set, or map',
    ],
    [
      '[]object | listMapKey=name',
      'listMapKey set while listType is unset, listType must be set to map',
    ],
    ['[]object | listType=set listMapKey=name', 'listMapKey set while listType is set to set'],
    [
      '[]string | uniqueItems=true listType=map',
      'listType attempting to overwrite set type of set',
    ],
  ])('refuses %s', async (type, message) => {
    expect(await field(type)).toEqual([expect.stringContaining(message)]);
    expect((await field(type))[0]).toMatch(/^9:\d+ rgd-bad-schema /);
  });

  it.each([
    ['[]integer | default=["a"]', 'spec.f: the default must be integer'],
    ['string | default="ab" pattern="^z"', 'spec.f: the default must match pattern "^z"'],
    ['map[string]integer | default={"a": "x"}', 'spec.f: the default must be integer'],
  ])(
    'refuses %s, a default its own field refuses (the API server refuses the CRD)',
    async (type, message) => {
      expect(await field(type)).toEqual([
        `9:16 rgd-bad-schema ${message}, so the API server refuses the CRD kro generates`,
      ]);
    },
  );

  it.each([
    '[]integer | default=[1, 2]',
    'string | default="zz" pattern="^z"',
    '[]object | listType=map listMapKey=name listMapKey=port',
    '[]string | listType=set uniqueItems=true',
    'float | default=1.5 minimum=0',
    'integer | enum="1,2" default=1',
  ])('accepts %s', async (type) => {
    expect(await field(type)).toEqual([]);
  });
});

describe('an empty forEach (kro test/upgrade/fixtures/foreach-empty)', () => {
  it('is one resource, not a collection: a reference to it is the object', async () => {
    const found = await findings(
      rgd(`    - id: cm
      forEach: []
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: cm } }
    - id: copy
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${cm.metadata.name + "-copy"}' }
`),
    );
    expect(found).toEqual([]);
  });
});

describe('instance status fields (kro builder.go inferStatusSchema, buildInstanceNode)', () => {
  const withStatus = (status: string): string =>
    rgd(
      '    - id: cm\n      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: cm } }\n',
      `    status:\n${status}`,
    );

  it('refuses a field without an expression, and one that refers to nothing', async () => {
    const found = await findings(
      withStatus(
        '      fixed: hello\n' +
          '      nested: { count: 3 }\n' +
          '      two: ${1 + 1}\n' +
          '      name: ${cm.metadata.name}\n' +
          '      spec: n-${schema.spec.name}\n',
      ),
    );
    expect(found).toEqual([
      '11:14 rgd-bad-expression status.fixed has no ${...} expression: kro computes the whole status from expressions, and refuses a constant field ("status fields without expressions are not supported")',
      '12:24 rgd-bad-expression status.nested.count has no ${...} expression: kro computes the whole status from expressions, and refuses a constant field ("status fields without expressions are not supported")',
      '13:12 rgd-bad-expression status.two refers to neither schema nor a resource: kro refuses it ("instance status field must refer to a resource or schema")',
    ]);
  });
});

describe('reserved words and template constraints (kro validation.go)', () => {
  it.each(['items', 'item', 'kind', 'namespace', 'object', 'version', 'runtime', 'var', 'let'])(
    'refuses the resource id %s, a reserved keyword in kro',
    async (id) => {
      const found = await findings(
        rgd(`    - id: ${id}
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: cm } }
`),
      );
      expect(found).toEqual([`11:11 rgd-bad-resource the id "${id}" is a reserved keyword in kro`]);
    },
  );

  it('refuses a reserved forEach iterator name (item)', async () => {
    const found = await findings(
      rgd(`    - id: cms
      forEach: [{ item: '\${schema.spec.zones}' }]
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: '\${item}' } }
`),
    );
    expect(found).toEqual([
      expect.stringMatching(/^12:17 rgd-bad-resource the forEach iterator "item" must be /),
    ]);
  });

  it('refuses an iterator named twice in one forEach, as kro validateForEachDimensions does', async () => {
    const found = await findings(
      rgd(`    - id: cms
      forEach:
        - zone: \${schema.spec.zones}
        - zone: \${schema.spec.zones}
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: '\${zone}' } }
`),
    );
    expect(found).toEqual(['14:11 rgd-bad-resource duplicate forEach iterator name "zone"']);
  });

  it('refuses a forEach of more than 10 dimensions (kro --rgd-max-collection-dimension-size)', async () => {
    const names = Array.from({ length: 11 }, (_, i) => `d${i}`);
    const found = await findings(
      rgd(`    - id: cms
      forEach:
${names.map((n) => `        - ${n}: \${schema.spec.zones}\n`).join('')}      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '${names.map((n) => `\${${n}}`).join('-')}' }
`),
    );
    expect(found).toEqual([
      "13:9 rgd-bad-resource forEach cannot have more than 10 dimensions, got 11 (kro's default --rgd-max-collection-dimension-size)",
    ]);
    // Ten are fine.
    const ten = names.slice(0, 10);
    const accepted = await findings(
      rgd(`    - id: cms
      forEach:
${ten.map((n) => `        - ${n}: \${schema.spec.zones}\n`).join('')}      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '${ten.map((n) => `\${${n}}`).join('-')}' }
`),
    );
    expect(accepted).toEqual([]);
  });

  it("refuses kro's own labels and annotations in a template", async () => {
    const found = await findings(
      rgd(`    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: cm
          labels: { kro.run/owned: "true", app: a }
          annotations: { internal.kro.run/x: x }
`),
    );
    expect(found).toEqual([
      '17:36 rgd-bad-resource invalid label "kro.run/owned" for resource "cm": labels with prefix "kro.run/" are reserved for kro\'s internal use',
      '18:46 rgd-bad-resource invalid annotation "internal.kro.run/x" for resource "cm": annotations with prefix "internal.kro.run/" are reserved for kro\'s internal use',
    ]);
  });

  it('refuses metadata.namespace on a cluster-scoped kind', async () => {
    const found = await findings(
      rgd(`    - id: ns
      template: { apiVersion: v1, kind: Namespace, metadata: { name: a, namespace: default } }
`),
    );
    expect(found).toEqual([
      '12:84 rgd-bad-resource resource "ns" is cluster-scoped and must not set metadata.namespace',
    ]);
  });
});

describe('unknown CEL functions (kro builder.go extractDependencies)', () => {
  it('refuses a call of an unknown function when the RGD loads, with no instance', async () => {
    const found = await findings(
      rgd(`    - id: cm
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: '\${foo(schema.spec.name)}' } }
`),
    );
    expect(found).toEqual([
      '12:71 rgd-bad-expression ${foo(schema.spec.name)} uses unknown functions: foo',
    ]);
  });
});

describe('spec.schema.scope (kro api/v1alpha1 ResourceScope, validation.go)', () => {
  const scoped = (scope: string, metadata: string): string =>
    rgd(
      `    - id: cm
      template: { apiVersion: v1, kind: ConfigMap, metadata: ${metadata} }
    - id: ns
      template: { apiVersion: v1, kind: Namespace, metadata: { name: apps } }
`,
      `    scope: ${scope}\n`,
    );

  it('refuses a namespaced child without a namespace when the instance is cluster-scoped', async () => {
    expect(await findings(scoped('Cluster', '{ name: cm }'))).toEqual([
      '13:17 rgd-bad-resource resource "cm" is namespaced and must set metadata.namespace when the instance CRD is cluster-scoped',
    ]);
    expect(await findings(scoped('Cluster', "{ name: cm, namespace: '' }"))).toEqual([
      expect.stringMatching(/^13:85 rgd-bad-resource resource "cm" is namespaced and must set/),
    ]);
  });

  it('accepts it with a namespace, and any child of a namespaced instance', async () => {
    expect(await findings(scoped('Cluster', '{ name: cm, namespace: apps }'))).toEqual([]);
    expect(await findings(scoped('Namespaced', '{ name: cm }'))).toEqual([]);
  });

  it('refuses a scope that is neither Namespaced nor Cluster', async () => {
    expect(await findings(scoped('Global', '{ name: cm }'))).toEqual([
      '10:12 rgd-bad-schema spec.schema.scope must be Namespaced or Cluster',
    ]);
  });
});

describe("template literals against the kind's schema (kro parser.go parseResource)", () => {
  it('refuses an unknown field of a built-in kind at its key, with a did-you-mean', async () => {
    const found = await findings(
      rgd(`    - id: deploy
      template:
        apiVersion: apps/v1
        kind: Deployment
        metadata: { name: web }
        spec:
          replica: 3
          selector: { matchLabels: { app: web } }
          template:
            metadata: { labels: { app: web } }
            spec: { containers: [{ name: web, image: nginx }] }
`),
    );
    expect(found).toEqual([
      '17:11 rgd-unknown-field resource deploy: unknown field "replica" (did you mean "replicas"?): Deployment (apps/v1) has no field spec.replica, and kro refuses the RGD: schema not found for field replica',
    ]);
  });

  it.each([
    [
      'an integer in a string field',
      'v1',
      'ConfigMap',
      'data: { port: 80 }',
      '16:23',
      'data.port of ConfigMap (v1) is of type string, but the template writes the integer 80: kro refuses the RGD: expected string type for path data.port, got integer',
    ],
    [
      'a string in an integer field',
      'apps/v1',
      'Deployment',
      'spec: { replicas: two }',
      '16:27',
      'spec.replicas of Deployment (apps/v1) is of type integer, but the template writes the string "two": kro refuses the RGD: expected integer type for path spec.replicas, got string',
    ],
    [
      'a string in a list field',
      'v1',
      'Service',
      'spec: { ports: "80" }',
      '16:24',
      'spec.ports of Service (v1) is of type array, but the template writes the string "80": kro refuses the RGD: expected array type for path spec.ports, got string',
    ],
  ])('refuses %s at the literal', async (_, apiVersion, kind, body, at, message) => {
    const found = await findings(
      rgd(`    - id: it
      template:
        apiVersion: ${apiVersion}
        kind: ${kind}
        metadata: { name: x }
        ${body}
`),
    );
    expect(found).toEqual([`${at} rgd-type-mismatch resource it: ${message}`]);
  });

  it('checks the fields of a CRD kind, and leaves expressions and open fields to their own checks', async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets, singular: widget, listKind: WidgetList }
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
                size: { type: integer }
                extra: { type: object, x-kubernetes-preserve-unknown-fields: true }
---
`;
    const found = await findings(
      crd +
        rgd(`    - id: widget
      template:
        apiVersion: example.com/v1
        kind: Widget
        metadata: { name: w, labels: { anything: goes } }
        spec:
          size: \${schema.spec.zones.size()}
          extra: { free: [1, "two"] }
          colour: blue
`),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^40:11 rgd-unknown-field resource widget: unknown field "colour": Widget \(example\.com\/v1\) has no field spec\.colour/,
      ),
    ]);
  });

  it("accepts int-or-string, quantities and null literals where kro's parser does", async () => {
    const found = await findings(
      rgd(`    - id: deploy
      template:
        apiVersion: apps/v1
        kind: Deployment
        metadata: { name: web, annotations: null }
        spec:
          strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: "25%" } }
          selector: { matchLabels: { app: web } }
          template:
            metadata: { labels: { app: web } }
            spec:
              containers:
                - name: web
                  image: nginx
                  ports: [{ containerPort: 80 }]
                  resources: { limits: { cpu: 0.5, memory: 128Mi } }
`),
    );
    expect(found).toEqual([]);
  });
});

describe('CRD templates (kro builder.go buildRGResource)', () => {
  const crdTemplate = (scope: string): string =>
    rgd(`    - id: crd
      template:
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: { name: '\${schema.spec.name}s.example.com' }
        spec:
          group: example.com
          names: { kind: Widget, plural: widgets }
          scope: ${scope}
          versions: [{ name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object } } }]
`);

  it('refuses an expression outside metadata, as kro does', async () => {
    expect(await findings(crdTemplate('Namespaced-${schema.spec.name}'))).toEqual([
      '19:18 rgd-bad-expression resource crd: CEL expressions in CRDs are only supported for metadata fields, found in path "spec.scope"',
    ]);
  });

  it('accepts expressions in its metadata', async () => {
    expect(await findings(crdTemplate('Namespaced'))).toEqual([]);
  });
});

describe("kro's words for nested expressions and dependent iterators", () => {
  it('refuses a ${...} nested in another, not one inside a CEL string (kro parser/cel.go)', async () => {
    const found = await findings(
      rgd(`    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: cm }
        data:
          nested: \${string(\${schema.spec.name})}
          quoted: \${"\${x}"}
`),
    );
    expect(found).toEqual([
      '17:19 rgd-bad-expression the expression at offset 0 holds another ${...} at offset 9: nested expressions are not allowed unless inside string literals',
    ]);
  });

  it('refuses a forEach iterator that reads another (kro builder.go)', async () => {
    const found = await findings(
      rgd(`    - id: cms
      forEach:
        - zone: \${schema.spec.zones}
        - tier: \${[zone + "-a"]}
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: '\${zone}-\${tier}' } }
`),
    );
    expect(found).toEqual([
      '14:17 rgd-unknown-ref ${[zone + "-a"]}: forEach iterator "tier" cannot reference other iterators [zone] - forEach iterators are independent (cartesian product)',
    ]);
  });
});

describe("kro's runtime library (v0.9.3 custom status conditions)", () => {
  it("refuses runtime outside status.conditions in kro's words", async () => {
    const found = await findings(
      rgd(`    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: cm }
        data: { a: "\${runtime.condition(cm, 'Ready').status}" }
`),
    );
    expect(found).toEqual([
      `16:21 rgd-bad-expression \${runtime.condition(cm, 'Ready').status}: runtime is only available in status.conditions expressions, as kro requires`,
    ]);
  });

  // kro's pkg/graph/conditions_test.go TestValidateConditionExpressions and the macro's rules
  // (pkg/cel/library/runtime.go), Apache-2.0: each refused entry at its file:line:col.
  const withConditions = (entries: readonly string[]): string =>
    rgd(
      '    - id: cm\n      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: cm } }\n',
      `    status:\n      conditions:\n${entries.map((e) => `        - "\${${e}}"\n`).join('')}`,
    );

  it.each([
    [
      'well-formed conditions',
      [
        "runtime.newCondition({type: 'A', status: 'True', reason: 'OK', message: 'all good'})",
        "runtime.newCondition({type: 'B', status: 'False', reason: '', message: ''})",
        "runtime.newCondition({type: 'C', status: 'Unknown', reason: '', message: ''})",
      ],
    ],
    [
      'a built-in lookup, even when the author overrides the type',
      [
        "runtime.newCondition({type: 'ResourcesReady', status: 'True', reason: '', message: ''})",
        "runtime.newCondition({type: 'DerivedReady', status: runtime.condition(schema, 'ResourcesReady').status, reason: '', message: ''})",
      ],
    ],
    [
      'a computed status and a computed lookup',
      [
        "runtime.newCondition({type: 'A', status: schema.spec.name, reason: '', message: ''})",
        "runtime.newCondition({type: 'B', status: runtime.condition(schema, schema.spec.name).status})",
      ],
    ],
    [
      "a lookup on a resource sharing an author's type",
      [
        "runtime.newCondition({type: 'PrimaryReady', status: 'True', reason: '', message: ''})",
        "runtime.newCondition({type: 'ChildMirror', status: runtime.condition(cm, 'PrimaryReady').status, reason: '', message: ''})",
      ],
    ],
    [
      'a map() of conditions, and a filter() of them',
      [
        "schema.spec.zones.map(z, runtime.newCondition({type: 'Zone-' + z, status: 'True'}))",
        "[runtime.newCondition({type: 'Kept', status: 'True'})].filter(c, c.status == 'True')",
      ],
    ],
    [
      'a type repeated within one entry (ternary branches)',
      [
        "schema.spec.enabled ? runtime.newCondition({type: 'AppReady', status: 'True'}) : runtime.newCondition({type: 'AppReady', status: 'False'})",
      ],
    ],
  ])('accepts %s', async (_, entries) => {
    expect(await findings(withConditions(entries))).toEqual([]);
  });

  it.each([
    [
      'a self-reference',
      [
        "runtime.newCondition({type: 'PrimaryReady', status: 'True', reason: '', message: ''})",
        "runtime.newCondition({type: 'Ready', status: runtime.condition(schema, 'PrimaryReady').status, reason: '', message: ''})",
      ],
      '13:12',
      'runtime.condition(schema, "PrimaryReady"): custom conditions cannot reference each other',
    ],
    [
      'a literal status that is not True, False or Unknown',
      ["runtime.newCondition({type: 'X', status: 'YES', reason: 'R', message: 'M'})"],
      '12:12',
      'runtime.newCondition: status must be one of True, False, Unknown (got "YES")',
    ],
    [
      'an invalid literal status inside map()',
      [
        "schema.spec.zones.map(s, runtime.newCondition({type: s, status: 'BAD', reason: '', message: ''}))",
      ],
      '12:12',
      'status must be one of True, False, Unknown (got "BAD")',
    ],
    [
      'an empty literal type',
      ["runtime.newCondition({type: '', status: 'True', reason: '', message: ''})"],
      '12:12',
      'runtime.newCondition: type must not be empty',
    ],
    [
      'a literal type two entries declare',
      [
        "runtime.newCondition({type: 'AppReady', status: 'True', reason: '', message: ''})",
        "runtime.newCondition({type: 'AppReady', status: 'False', reason: '', message: ''})",
      ],
      '13:12',
      'condition type "AppReady" is declared by more than one conditions entry',
    ],
    [
      'an unknown schema lookup (a typo)',
      [
        "runtime.newCondition({type: 'Derived', status: runtime.condition(schema, 'ResourcesRaedy').status, reason: '', message: ''})",
      ],
      '12:12',
      'runtime.condition(schema, "ResourcesRaedy"): unknown condition type',
    ],
    [
      'an unknown key, at the key',
      ["runtime.newCondition({type: 'Y', status: 'True', reson: ''})"],
      '12:63',
      'runtime.newCondition: unknown key "reson" (allowed: type, status, reason, message)',
    ],
    [
      'a quoted key',
      ["runtime.newCondition({'type': 'Y', status: 'True'})"],
      '12:36',
      'runtime.newCondition: keys must be bare identifiers',
    ],
    [
      'a key written twice',
      ["runtime.newCondition({type: 'Y', status: 'True', type: 'Z'})"],
      '12:63',
      'runtime.newCondition: duplicate key "type"',
    ],
    [
      'no type',
      ["runtime.newCondition({status: 'True'})"],
      '12:35',
      "runtime.newCondition: 'type' is required",
    ],
    [
      'a value that is not a condition',
      ["'not a condition'"],
      '12:12',
      'condition expressions must return runtime.newCondition(...) or a list of them, got string',
    ],
    [
      "a map() of maps, not of conditions (cel-go types map()'s result as a list of its values)",
      ["schema.spec.zones.map(z, {'type': z, 'status': 'True', 'reason': '', 'message': ''})"],
      '12:12',
      'condition expressions must return runtime.newCondition(...) or a list of them, got list(map(string, string))',
    ],
    [
      "a field of a condition, not the condition (kro's kro.run.Condition fields are strings)",
      ["runtime.newCondition({type: 'A', status: 'True', reason: '', message: ''}).status"],
      '12:12',
      'condition expressions must return runtime.newCondition(...) or a list of them, got string',
    ],
  ])('refuses %s', async (_, entries, at, message) => {
    const found = await findings(withConditions(entries));
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`${at} rgd-bad-expression `);
    expect(found[0]).toContain(message);
  });

  it("refuses a field a condition does not have, as kro's checker does (kro.run.Condition)", async () => {
    const found = await findings(
      withConditions([
        "runtime.newCondition({type: 'Derived', status: runtime.condition(schema, 'ResourcesReady').sttus, reason: '', message: ''})",
      ]),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^12:12 rgd-unknown-field /);
    expect(found[0]).toContain('"sttus"');
    expect(found[0]).toContain('did you mean "status"?');
  });
});

describe('externalRef metadata (kro ExternalRefMetadata)', () => {
  it("names a name written beside an empty metadata (kro's gcp/gemma-on-tpu)", async () => {
    // As kro's examples/gcp/gemma-on-tpu/rgd.yaml writes it: `metadata:` empty, name one level up.
    const found = await findings(
      rgd(`    - id: project
      externalRef:
        apiVersion: v1
        kind: ConfigMap
        metadata:
        name: acquire-namespace-project
        namespace: \${schema.metadata.namespace}
`),
    );
    expect(found).toEqual([
      "16:15 rgd-bad-resource resource project: an externalRef names apiVersion, kind and metadata.name (or metadata.selector, for a collection): this one has name beside metadata, where kro's externalRef has no such field: indent it under metadata",
    ]);
  });

  it('says only what is missing when nothing is misplaced', async () => {
    const found = await findings(
      rgd(`    - id: project
      externalRef: { apiVersion: v1, kind: ConfigMap, metadata: {} }
`),
    );
    expect(found).toEqual([
      '12:20 rgd-bad-resource resource project: an externalRef names apiVersion, kind and metadata.name (or metadata.selector, for a collection)',
    ]);
  });
});

describe('where an expression that does not parse fails', () => {
  it('is the token the parser stopped at, when the file writes the expression as it is', async () => {
    const found = await findings(
      rgd(`    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name +}
        data:
          quoted: "a-\\"-\${schema.spec.name +}"
          escaped: "\${schema.spec.name + \\"x\\" +}"
`),
    );
    expect(found).toEqual([
      // Line 16, `          name: ${schema.spec.name +}`: the `+` is column 36.
      expect.stringMatching(
        /^16:36 rgd-bad-expression \$\{schema\.spec\.name \+\} does not compile: 1:18:/,
      ),
      // An escape before the expression does not move it.
      expect.stringMatching(
        /^18:44 rgd-bad-expression \$\{schema\.spec\.name \+\} does not compile: 1:18:/,
      ),
      // One inside it does: the file does not hold the expression as written, so its `${`.
      expect.stringMatching(
        /^19:21 rgd-bad-expression \$\{schema\.spec\.name \+ "x" \+\} does not compile: 1:/,
      ),
    ]);
  });
});

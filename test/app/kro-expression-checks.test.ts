import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/app/project-config.js';
import { readProjectManifests } from '../../src/app/read-project-manifests.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** An RGD of kind Thing with the given SimpleSchema `spec` fields and `resources`. */
const rgd = (fields: string, resources: string): string => `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: thing.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Thing
    spec:
      name: string
      replicas: integer
      zones: '[]string'
      config: object
${fields}
  resources:
${resources}`;

/** A ConfigMap resource whose `data` holds `data` (lines indented by 10). */
const configMap = (id: string, data: string, extra = '', name = id): string => `    - id: ${id}
${extra}      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: ${name}
        data:
${data}`;

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
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
                settings:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                  properties:
                    size: { type: integer }
`;

/** The RGD's findings as `line:col code message`. */
async function findings(text: string, crd?: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kro-types-'));
  dirs.push(dir);
  await writeFile(path.join(dir, 'rgd.yaml'), text);
  if (crd !== undefined) await writeFile(path.join(dir, 'crd.yaml'), crd);
  const options = { cwd: dir, files: [dir], stable: true };
  const read = await readProjectManifests(options, await loadProjectConfig(options));
  return read.findings
    .filter((f) => f.severity === 'error' && f.code !== 'empty-input')
    .map((f) => `${f.line}:${f.col} ${f.code} ${f.message}`);
}

describe('RGD expressions are type-checked whole when the RGD loads', () => {
  it('refuses a misspelled field inside an operator expression, with a did-you-mean', async () => {
    const found = await findings(
      rgd('', configMap('config', '          a: ${schema.spec.nam + "-x"}\n')),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^23:14 rgd-unknown-field \$\{schema\.spec\.nam \+ "-x"\} reads the field "nam", which its schema does not have \(did you mean "name"\?\)/,
      ),
    ]);
  });

  it('refuses a function call whose result does not fit the target field', async () => {
    const found = await findings(
      rgd('', configMap('config', '          a: ${size(schema.spec.name)}\n')),
    );
    expect(found).toEqual([
      '23:14 rgd-type-mismatch ${size(schema.spec.name)} is of type int, but data.a of ConfigMaps.core is of type string',
    ]);
  });

  it('accepts the same call where its type fits (string(...) into a string field)', async () => {
    const found = await findings(
      rgd('', configMap('config', '          a: ${string(size(schema.spec.name))}\n')),
    );
    expect(found).toEqual([]);
  });

  it('refuses an optional access .? to a field the schema does not have', async () => {
    const found = await findings(
      rgd('', configMap('config', '          a: ${schema.spec.?nam.orValue("n")}\n')),
    );
    expect(found).toEqual([
      expect.stringMatching(/^23:14 rgd-unknown-field .*"nam".*did you mean "name"/),
    ]);
  });

  it('refuses a plain field path that selects a field of a string (kro: "does not support field selection")', async () => {
    const found = await findings(
      rgd(
        '',
        configMap('first', '          a: b\n') +
          configMap(
            'second',
            '          a: ${first.metadata.name.field}\n          b: ${schema.spec.name.x}\n',
          ),
      ),
    );
    expect(found).toEqual([
      "31:14 rgd-type-mismatch ${first.metadata.name.field} does not type-check: type 'string' does not support field selection (first.metadata.name selects .field)",
      "32:14 rgd-type-mismatch ${schema.spec.name.x} does not type-check: type 'string' does not support field selection (schema.spec.name selects .x)",
    ]);
  });

  it('refuses a macro (.map) over a field that is not a list', async () => {
    const found = await findings(
      rgd('', configMap('config', '          a: ${schema.spec.replicas.map(r, r).join(",")}\n')),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^23:14 rgd-type-mismatch .*expression of type 'int' cannot be range of a comprehension/,
      ),
    ]);
  });

  it('says nothing of fields under x-kubernetes-preserve-unknown-fields (SimpleSchema object)', async () => {
    const found = await findings(
      rgd(
        '',
        configMap(
          'config',
          '          a: ${schema.spec.config.anything.deep + "-x"}\n' +
            '          b: ${schema.spec.config.?other.orValue("b")}\n' +
            '          c: x-${schema.spec.config.whatever}\n',
        ),
      ),
    );
    expect(found).toEqual([]);
  });

  it('says nothing of unknown fields of a CRD object with properties and preserved unknown fields', async () => {
    const widget = (data: string): string =>
      rgd(
        '',
        `    - id: widget
      template:
        apiVersion: example.com/v1
        kind: Widget
        metadata:
          name: w
        spec:
          settings:
            size: 1
` + configMap('config', data),
      );
    expect(
      await findings(
        widget(
          '          a: ${widget.spec.settings.extra + "-x"}\n' +
            '          b: ${widget.spec.settings.?other.orValue("b")}\n',
        ),
        WIDGET_CRD,
      ),
    ).toEqual([]);
    // The closed object next to it is checked.
    expect(
      await findings(widget('          a: ${widget.spec.other + "-x"}\n'), WIDGET_CRD),
    ).toEqual([
      expect.stringMatching(/^32:14 rgd-unknown-field .*"other".* its fields there are settings/),
    ]);
  });

  it('types forEach iterators as the list element, and a forEach resource as a list', async () => {
    const found = await findings(
      rgd(
        '',
        configMap(
          'zoned',
          '          zone: ${zone}\n          length: ${zone.size()}\n',
          '      forEach:\n        - zone: ${schema.spec.zones.filter(z, z != "")}\n',
          'zoned-${zone}',
        ) + configMap('summary', '          names: ${zoned.map(c, c.metadata.nmae).join(",")}\n'),
      ),
    );
    expect(found).toEqual([
      '26:19 rgd-type-mismatch ${zone.size()} is of type int, but data.length of ConfigMaps.core is of type string',
      expect.stringMatching(
        /^34:18 rgd-unknown-field .*"nmae".* its fields there are annotations, .*, name, namespace, /,
      ),
    ]);
  });

  it('reports every finding at once: a condition, a forEach, a string template', async () => {
    const found = await findings(
      rgd(
        '',
        configMap(
          'config',
          '          a: n-${size(schema.spec.zones)}\n',
          '      includeWhen:\n        - ${size(schema.spec.name)}\n' +
            '      forEach:\n        - zone: ${schema.spec.name + "x"}\n',
          'config-${zone}',
        ),
      ),
    );
    expect(found).toEqual([
      '18:11 rgd-type-mismatch ${size(schema.spec.name)} is of type int, but includeWhen needs a boolean',
      '20:17 rgd-type-mismatch ${schema.spec.name + "x"} is of type string, but forEach needs a list',
      expect.stringMatching(
        /^27:16 rgd-type-mismatch \$\{size\(schema\.spec\.zones\)\} is of type int, but a string template/,
      ),
    ]);
  });

  it('refuses an operator its operands have no overload for', async () => {
    const found = await findings(
      rgd(
        '',
        configMap('config', '          a: ${string(schema.spec.replicas + schema.spec.name)}\n'),
      ),
    );
    expect(found).toEqual([
      "23:14 rgd-type-mismatch ${string(schema.spec.replicas + schema.spec.name)} does not type-check: found no matching overload for '_+_' applied to '(int, string)'",
    ]);
  });
});

const GAUGE_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gauges.example.com
spec:
  group: example.com
  names: { kind: Gauge, plural: gauges, singular: gauge, listKind: GaugeList }
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
                ratio: { type: number }
                port: { x-kubernetes-int-or-string: true }
                at: { type: string, format: date-time }
`;

/** A Gauge resource whose spec holds `spec` (lines indented by 10), after a ConfigMap. */
const gauge = (spec: string): string =>
  configMap('config', '          a: b\n') +
  `    - id: gauge
      template:
        apiVersion: example.com/v1
        kind: Gauge
        metadata:
          name: g
        spec:
${spec}`;

describe("RGD template values are typed as kro's build types them", () => {
  // kro: validateExpressionType (pkg/graph/builder.go) refuses what cel-go's IsAssignableType
  // and AreTypesStructurallyCompatible (pkg/cel/compatibility.go: "type kind mismatch") refuse.
  it('refuses a standalone bool into a string field (kro examples/aws/llm nodeSelector)', async () => {
    const found = await findings(
      rgd(
        '      enabled: boolean',
        configMap(
          'config',
          '          a: ${schema.spec.enabled}\n          b: ${!schema.spec.enabled}\n',
        ),
      ),
    );
    expect(found).toEqual([
      '23:14 rgd-type-mismatch ${schema.spec.enabled} is of type bool, but data.a of ConfigMaps.core is of type string',
      '24:14 rgd-type-mismatch ${!schema.spec.enabled} is of type bool, but data.b of ConfigMaps.core is of type string',
    ]);
  });

  // kro: parseString / buildStringTemplate (pkg/graph/parser/parser.go) make "x-${e}" the CEL
  // `"x-" + (e)`, which the checker refuses for a bool or an int ("found no matching overload
  // for '_+_'", builder_test.go "string interpolation non string expression"); a dyn passes.
  it("refuses the bytes of kro's hash functions in a string field, and takes them encoded", async () => {
    const found = await findings(
      rgd(
        '',
        configMap(
          'config',
          [
            '          a: ${hash.sha256(schema.spec.name)}',
            '          b: x-${hash.fnv64a(schema.spec.name)}',
            '          c: ${base64.encode(hash.md5(schema.spec.name))}',
            '          d: ${random.seededString(4, schema.spec.name)}',
            '',
          ].join('\n'),
        ),
      ),
    );
    expect(found).toEqual([
      '23:14 rgd-type-mismatch ${hash.sha256(schema.spec.name)} is of type bytes, but data.a of ConfigMaps.core is of type string',
      expect.stringMatching(
        /^24:16 rgd-type-mismatch \$\{hash\.fnv64a\(schema\.spec\.name\)\} is of type bytes, but a string template/,
      ),
    ]);
  });

  it('refuses a bool, an int or an optional inside a string template, and takes a dyn', async () => {
    const found = await findings(
      rgd(
        '      enabled: boolean',
        configMap(
          'config',
          '          a: --log=${schema.spec.enabled}\n' +
            '          b: n-${schema.spec.replicas + 1}\n' +
            '          c: n-${schema.spec.?name}\n' +
            '          d: n-${schema.spec.config.anything}-${string(schema.spec.enabled)}\n',
        ),
      ),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^23:20 rgd-type-mismatch \$\{schema\.spec\.enabled\} is of type bool, but a string template .* write \$\{string\(schema\.spec\.enabled\)\}$/,
      ),
      expect.stringMatching(/^24:16 rgd-type-mismatch .* is of type int, but a string template/),
      expect.stringMatching(
        /^25:16 rgd-type-mismatch .* is of type optional_type\(string\), but a string template/,
      ),
    ]);
  });

  // kro's CEL types of a schema (pkg/cel/schemas.go SchemaDeclTypeWithMetadata): number is
  // double, a date-time string a timestamp, x-kubernetes-int-or-string dyn.
  it('refuses an int into a number field and a string into a date-time field; takes anything into int-or-string', async () => {
    const found = await findings(
      rgd(
        '      enabled: boolean',
        gauge(
          '          ratio: ${schema.spec.replicas}\n' +
            '          port: ${schema.spec.enabled}\n' +
            '          at: ${schema.spec.name}\n',
        ),
      ),
      GAUGE_CRD,
    );
    expect(found).toEqual([
      '31:18 rgd-type-mismatch ${schema.spec.replicas} is of type int, but spec.ratio of Gauges.example.com is of type double',
      '33:15 rgd-type-mismatch ${schema.spec.name} is of type string, but spec.at of Gauges.example.com is of type timestamp',
    ]);
    expect(
      await findings(
        rgd(
          '',
          gauge(
            '          ratio: ${double(schema.spec.replicas)}\n' +
              '          port: p-${schema.spec.name}\n' +
              '          at: ${timestamp("2024-01-02T03:04:05Z")}\n',
          ),
        ),
        GAUGE_CRD,
      ),
    ).toEqual([]);
  });

  // kro: parseString (pkg/graph/parser/parser.go) refuses a string template where the field's
  // schema has no string type; validateExpressionType then compares the string with its type.
  it('refuses a string template into a field that is not a string', async () => {
    const found = await findings(
      rgd('', gauge('          ratio: r-${schema.spec.name}\n')),
      GAUGE_CRD,
    );
    expect(found).toEqual([
      '31:18 rgd-type-mismatch "r-${schema.spec.name}" is a string template, but spec.ratio of Gauges.example.com is of type double',
    ]);
  });

  // AreTypesStructurallyCompatible: an object fits an object whose fields hold its own
  // (builder_test.go "fail - full containers array with extra field").
  it('refuses a list of objects with a field the target objects lack', async () => {
    const found = await findings(
      rgd(
        '',
        configMap('config', '          a: b\n') +
          `    - id: pod
      template:
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          containers: \${schema.spec.containers}
`,
      ).replace(
        '      config: object\n',
        '      config: object\n      containers: "[]container"\n    types:\n      container:\n        name: string\n        image: string\n        extraField: string\n',
      ),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /rgd-type-mismatch \$\{schema\.spec\.containers\} is of type list\(object\), but spec\.containers of Pods\.core is of type list\(object\) \(list element type incompatible: field "extraField" exists in the value but not in the expected type\)$/,
      ),
    ]);
  });

  it('places an expression inside a quoted or block string at its $', async () => {
    const found = await findings(
      rgd(
        '',
        configMap(
          'config',
          "          a: '${schema.spec.nmae}'\n" +
            '          b: "x-${schema.spec.name}-${schema.spec.nmae}"\n' +
            '          c: |\n            first line\n            then ${schema.spec.nmae}\n',
        ),
      ),
    );
    expect(found.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([
      '23:15 rgd-unknown-field',
      '24:37 rgd-unknown-field',
      '27:18 rgd-unknown-field',
    ]);
  });
});
